import { EventEmitter } from 'node:events';

/** A match just committed: its id and its owner. */
export type NewMatch = { readonly userId: string; readonly matchId: number };

/**
 * In-process announcements of new matches, emitted after their transaction commits. They say
 * that there is something to read, not what: the live feed (`LiveMatches`) and delivery read
 * the matches themselves, as they do for matches other processes commit, so every match reaches
 * them one way. Listeners must not throw and should only queue work (they are called
 * synchronously).
 */
export class MatchEvents {
  readonly #emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    // One listener per process part that reads matches (the live feed, delivery); tests add more.
    this.#emitter.setMaxListeners(0);
  }

  emit(matches: readonly NewMatch[]): void {
    if (matches.length > 0) this.#emitter.emit('matches', matches);
  }

  /** Calls `listener` with each batch of new matches; returns the function that stops it. */
  subscribe(listener: (matches: readonly NewMatch[]) => void): () => void {
    this.#emitter.on('matches', listener);
    return () => this.#emitter.off('matches', listener);
  }
}
