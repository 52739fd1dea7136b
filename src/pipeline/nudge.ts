/**
 * A wake-up call between loops of one process: the ingestion loop nudges the matchers right
 * after it stores items, so an item is matched at once instead of at the next poll.
 */
export class Nudge {
  #waiters = new Set<() => void>();
  #pending = false;

  wake(): void {
    this.#pending = true;
    for (const resolve of this.#waiters) resolve();
    this.#waiters.clear();
  }

  /** Resolves on the next `wake` (or at once if one came since the last wait), or after `ms`. */
  wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.#pending || signal?.aborted) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#waiters.delete(done);
        this.#pending = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.#waiters.add(done);
    });
  }
}

/** Wakes every registered `Nudge` (one per matcher shard, one per index follower). */
export class NudgeHub {
  readonly #nudges = new Set<Nudge>();

  /** A new nudge woken by every `wake` of this hub until `release`. */
  register(): { readonly nudge: Nudge; release(): void } {
    const nudge = new Nudge();
    this.#nudges.add(nudge);
    return { nudge, release: () => this.#nudges.delete(nudge) };
  }

  wake(): void {
    for (const nudge of this.#nudges) nudge.wake();
  }
}
