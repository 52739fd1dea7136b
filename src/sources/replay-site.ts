/** One recorded answer's record, as the site's API gave it. */
export type RawRecord = Record<string, unknown>;

/** When the records of one site became visible (the replay's one clock). */
export type ReplayClock = {
  /** How many records of the site are visible now. */
  revealed(): number;
  /** The moment (ms since the epoch) record `index` became visible. */
  revealedAt(index: number): number;
};

export type ReplayAnswer = {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
};

/**
 * One site's replay, from its folder (`src/sources/<site>/replay.ts`): it answers under its own
 * path prefix of the replay server, in the site's API shapes, revealing its recorded records
 * as the clock says. Record `index` beyond the recordings (a looping replay) is the recording
 * `index % size` with fresh ids.
 */
export type ReplaySite = {
  /** e.g. `/devto`: the site's API answers at `<replay url>/devto/...`. */
  readonly prefix: string;
  /** The site's recordings in `dir` (tests/fixtures/recorded), in the order they are revealed. */
  load(dir: string): RawRecord[];
  /** Whether the site's normaliser keeps this recorded record (what a test must see stored). */
  keeps(record: RawRecord): boolean;
  /** The external id (as Earshot stores it) of record `index`. */
  externalId(records: readonly RawRecord[], index: number): string;
  /** The record index of an external id, or -1. */
  indexOf(records: readonly RawRecord[], externalId: string): number;
  /** Whether an answer to `path` (after the prefix) carries records (a wrong-type fault waits for one). */
  carriesItems(path: string): boolean;
  answer(
    request: {
      readonly path: string;
      readonly query: URLSearchParams;
      readonly wrongType: boolean;
      /** The request's headers, lower case (a conditional request's `if-none-match`). */
      readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
    },
    records: readonly RawRecord[],
    clock: ReplayClock,
  ): ReplayAnswer;
  /**
   * For a site read over a WebSocket (Bluesky's Jetstream): where a connection starts and what
   * it is sent, one message a record as records are revealed. `answer` serves plain HTTP.
   */
  readonly websocket?: {
    /** The record index a connection to `path` starts from; null: no stream there (404). */
    start(
      request: { readonly path: string; readonly query: URLSearchParams },
      records: readonly RawRecord[],
      clock: ReplayClock,
    ): number | null;
    /** Record `index` as the site's message (text). */
    message(records: readonly RawRecord[], index: number, clock: ReplayClock): string;
  };
  /**
   * For a site that also streams over server-sent events (Mastodon's streaming API): where a
   * stream at `path` starts (null: no stream there, the request goes to `answer`) and each
   * record as one event (`event: …\ndata: …\n\n`), sent as records are revealed.
   */
  readonly eventStream?: {
    start(
      request: { readonly path: string; readonly query: URLSearchParams },
      records: readonly RawRecord[],
      clock: ReplayClock,
    ): number | null;
    event(records: readonly RawRecord[], index: number, clock: ReplayClock): string;
  };
  /** The settings that point Earshot at this replay (`url` includes the prefix). */
  settings(url: string): Record<string, string>;
};
