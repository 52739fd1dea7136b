/** One server-sent event as read off the wire. */
export type SseEvent = { event: string; id?: string; data: string };

export type SseConnection = {
  status: number;
  /** Every event so far, in order; comment lines are counted in `comments`. */
  events: SseEvent[];
  comments: number;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Waits until an event satisfies `predicate` (or fails after `timeoutMs`). */
  waitFor(predicate: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
};

/** Opens a server-sent events stream with fetch and parses it as EventSource would. */
export async function openSse(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const connection: SseConnection = {
    status: response.status,
    events,
    comments: 0,
    ended: Promise.resolve(),
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(predicate);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`No matching event within ${timeoutMs} ms: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.add(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => abort.abort(),
  };
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return connection;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  connection.ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let split = buffer.indexOf('\n\n');
        while (split >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          const event: SseEvent = { event: 'message', data: '' };
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) connection.comments += 1;
            else if (line.startsWith('event:')) event.event = line.slice(6).trim();
            else if (line.startsWith('id:')) event.id = line.slice(3).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length > 0) {
            event.data = data.join('\n');
            events.push(event);
          }
          for (const wake of waiters) wake();
          waiters.clear();
          split = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      for (const wake of waiters) wake();
    }
  })();
  return connection;
}
