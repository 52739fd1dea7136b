import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type EntryProcess = {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves when the output contains `pattern` (after `from` characters), or rejects after the timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number, from?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** Runs one of the real entries (`src/worker-main.ts`, `src/web-main.ts`, `src/main.ts`). */
export function startEntry(entry: string, env: Record<string, string>): EntryProcess {
  let output = '';
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    output: () => output,
    async waitFor(pattern, timeoutMs = 30_000, from = 0) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output.slice(from))) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`${entry} exited before printing ${pattern}:\n${output}`);
        }
        if (Date.now() > deadline) throw new Error(`${entry} did not print ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
