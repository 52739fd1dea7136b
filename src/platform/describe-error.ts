const MAX_LENGTH = 300;

/**
 * An error as one short line for logs, health rows and outbox rows: never a stack, never a
 * failed query's statement or parameters. `AggregateError` (a connection tried on every address)
 * says its first cause; a system error keeps its code (`ECONNREFUSED: connect …`); a database
 * fault says so, since the site or relay may be fine.
 */
export function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return describeError(error.errors[0]);
  }
  // Drizzle's message is the whole statement and its parameters: say what the driver said.
  if (error instanceof Error && error.message.startsWith('Failed query') && error.cause) {
    return `database: ${describeError(error.cause)}`;
  }
  if (error instanceof Error) {
    const code = 'code' in error && error.code ? `${String(error.code)}: ` : '';
    const message = error.message || error.name;
    const line = message.split('\n')[0] ?? error.name;
    return shorten(message.startsWith(code) ? line : `${code}${line}`);
  }
  return shorten(String(error));
}

function shorten(line: string): string {
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH)}…` : line;
}
