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
    },
    records: readonly RawRecord[],
    clock: ReplayClock,
  ): ReplayAnswer;
  /** The settings that point Earshot at this replay (`url` includes the prefix). */
  settings(url: string): Record<string, string>;
};
