import { runFromCommandLine } from './main.ts';

// `npm run worker`: ingestion, matching and pruning only; run any number on one PostgreSQL server.
runFromCommandLine({ web: false, worker: true });
