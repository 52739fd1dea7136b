import { EventEmitter } from 'node:events';
import type { Match } from '../shared/match.ts';

/** A match just committed, with its owner (the live feed sends it to that user only). */
export type NewMatch = { readonly userId: string; readonly match: Match };

/**
 * In-process announcements of new matches, emitted after their transaction commits: the live
 * feed (server-sent events) and delivery listen. Listeners must not throw; a slow one delays
 * nobody (they are called synchronously, so they should only queue work).
 */
export class MatchEvents {
  readonly #emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    // One listener per open live-feed connection: hundreds are normal.
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
