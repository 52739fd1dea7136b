// Loaded with `node --import` into an app process that app-process.ts starts with
// `exitWithParent` (the browser suite's app shared by a whole Vitest worker, e2e-app.ts). Such a
// process is spawned with an IPC channel to the worker, and the operating system closes that
// channel however the worker ends: a normal exit, Vitest's SIGTERM at the end of the run (which
// runs no exit handlers in the worker) or a SIGKILL. The process then kills itself at once. Not a
// graceful stop: its log goes to a pipe nobody reads any more, and flushing the log to it at
// shutdown can wait forever (seen: a SIGTERM'd orphan hanging in a futex); its data dir is a
// throwaway copy anyway.
if (process.channel) {
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
