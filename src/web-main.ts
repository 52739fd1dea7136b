import { runFromCommandLine } from './main.ts';

// `npm run web`: the HTTP half only (API, identity, web app); run any number behind a balancer.
runFromCommandLine({ web: true, worker: false });
