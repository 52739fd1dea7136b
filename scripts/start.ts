import { ensureWebBuild } from './ensure-web-build.ts';

// `npm start`: build what is missing, then run the one-process server on its embedded defaults.
ensureWebBuild();
const { runFromCommandLine } = await import('../src/main.ts');
runFromCommandLine({ web: true, worker: true });
