import { SOURCE_NAMES, type SourceName } from '../shared/sources.ts';
import { forEachWord, normaliseGap } from './text.ts';

/** The sources a query can name with `site:`: every source Earshot reads. */
export const SOURCES = SOURCE_NAMES;
export type Source = SourceName;

/**
 * What the punctuation around a word must be. Between two words of one typed token (the `.` of
 * `node.js`) it is `exact`; elsewhere the gap must start with `head` (the `++` of `c++`) and end
 * with `tail` (the `.` of `.net`), and hold more than both unless it reaches the field's edge,
 * so that `c++` does not match "c++17" and `.net` does not match "asp.net".
 */
export interface GapRule {
  readonly exact: boolean;
  readonly head: string;
  readonly tail: string;
}

/** Words that must stand next to each other, in order; one word for a plain term. */
export interface Sequence {
  readonly words: readonly string[];
  /** `words.length + 1` rules (before the first word, between words, after the last), or null when no rule constrains. */
  readonly gaps: readonly GapRule[] | null;
}

/** A word, a token with inner punctuation (`node.js`) or a quoted phrase. */
export interface TermNode {
  readonly type: 'term';
  readonly quoted: boolean;
  readonly sequence: Sequence;
  /** Where the term stands in the query string, quotes included. */
  readonly start: number;
  readonly end: number;
}

/** `rust*`: any word that starts with `prefix` (normalised); `*` alone has an empty prefix. */
export interface PrefixNode {
  readonly type: 'prefix';
  readonly prefix: string;
  readonly start: number;
  readonly end: number;
}

export interface AndNode {
  readonly type: 'and';
  readonly children: readonly QueryNode[];
}

export interface OrNode {
  readonly type: 'or';
  readonly children: readonly QueryNode[];
}

export interface NotNode {
  readonly type: 'not';
  readonly child: QueryNode;
}

export interface SiteNode {
  readonly type: 'site';
  readonly source: Source;
}

/** `subreddit:name` / `r/name`; the name is lower-cased. */
export interface CommunityNode {
  readonly type: 'community';
  readonly name: string;
  /** Written as `feed:"name"` (with `site:feeds` beside it): a feed's name, not a subreddit. */
  readonly feed?: true;
  /** Written as `repo:owner/name` (with `site:github` beside it): a GitHub repository. */
  readonly repo?: true;
}

/** `author:name`; the name is lower-cased. */
export interface AuthorNode {
  readonly type: 'author';
  readonly name: string;
}

/** What a signal filter reads of an item (src/shared/signals.ts): `intent:`, `sentiment:`, `lang:`. */
export type SignalKind = 'intent' | 'sentiment' | 'lang';

/**
 * `intent:question`, `sentiment:negative`, `lang:en`: the item's signals, read when it was stored,
 * must include this value (an intent, its sentiment, its ISO 639-1 language). Lower case.
 */
export interface SignalNode {
  readonly type: 'signal';
  readonly signal: SignalKind;
  readonly value: string;
}

/** `title:…`: the terms below must be found in the title. */
export interface TitleNode {
  readonly type: 'title';
  readonly child: QueryNode;
}

export type QueryNode =
  | TermNode
  | PrefixNode
  | AndNode
  | OrNode
  | NotNode
  | SiteNode
  | CommunityNode
  | AuthorNode
  | SignalNode
  | TitleNode;

/** The words of one whitespace-free piece of a query, with the normalised gaps around them. */
export interface Chunk {
  readonly words: string[];
  /** `words.length + 1` gaps: before the first word, between words, after the last. */
  readonly gaps: string[];
}

const PLAIN_WORD = /^[a-z0-9]+$/iu;

export function analyseChunk(raw: string): Chunk {
  if (PLAIN_WORD.test(raw)) return { words: [raw.toLowerCase()], gaps: ['', ''] };
  const words: string[] = [];
  const gaps: string[] = [];
  let previousEnd = 0;
  forEachWord(raw, (word, start, end) => {
    words.push(word);
    gaps.push(normaliseGap(raw.slice(previousEnd, Math.max(previousEnd, start))));
    previousEnd = Math.max(previousEnd, end);
  });
  gaps.push(normaliseGap(raw.slice(previousEnd)));
  return { words, gaps };
}

const FREE_RULE: GapRule = { exact: false, head: '', tail: '' };

function isFree(rule: GapRule): boolean {
  return !rule.exact && rule.head === '' && rule.tail === '';
}

/** Joins chunks into one sequence: punctuation typed between chunks only constrains its side. */
export function buildSequence(chunks: readonly Chunk[]): Sequence {
  const only = chunks.length === 1 ? chunks[0]! : null;
  if (only !== null && only.words.length === 1 && only.gaps[0] === '' && only.gaps[1] === '') {
    return { words: only.words, gaps: null };
  }
  const words: string[] = [];
  const rules: GapRule[] = [];
  let pendingHead = '';
  for (const chunk of chunks) {
    if (chunk.words.length === 0) continue;
    const lead = chunk.gaps[0] ?? '';
    rules.push(
      pendingHead === '' && lead === ''
        ? FREE_RULE
        : { exact: false, head: pendingHead, tail: lead },
    );
    for (let i = 0; i < chunk.words.length; i++) {
      words.push(chunk.words[i]!);
      if (i > 0) rules.push({ exact: true, head: chunk.gaps[i] ?? '', tail: '' });
    }
    pendingHead = chunk.gaps[chunk.words.length] ?? '';
  }
  rules.push(pendingHead === '' ? FREE_RULE : { exact: false, head: pendingHead, tail: '' });
  return { words, gaps: rules.every(isFree) ? null : rules };
}
