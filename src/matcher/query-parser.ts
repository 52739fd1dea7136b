import { INTENTS, LANGUAGE_PATTERN, SENTIMENTS } from '../shared/signals.ts';
import { SITE_ALIASES } from '../shared/sources.ts';
import {
  analyseChunk,
  buildSequence,
  type Chunk,
  type QueryNode,
  type SignalKind,
  SOURCES,
} from './query-ast.ts';
import { normaliseWordText } from './text.ts';

/** A query that cannot be parsed: a sentence for the user and where, in UTF-16 units. */
export class QuerySyntaxError extends Error {
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.name = 'QuerySyntaxError';
    this.position = position;
  }
}

const MAX_DEPTH = 32;
const FIELD = /^(title|site|subreddit|author|feed|repo|intent|sentiment|lang|language):$/iu;
const REDDIT_PREFIX = /^\/?r\//iu;
const OPEN_QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e']);
const CLOSE_QUOTES = new Set(['"', '\u201c', '\u201d']);

const quote = (text: string): string =>
  `\u201c${text.length > 40 ? `${text.slice(0, 40)}…` : text}\u201d`;

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\u3000';
}

function endsToken(char: string | undefined): boolean {
  return (
    char === undefined || isSpace(char) || char === '(' || char === ')' || OPEN_QUOTES.has(char)
  );
}

/**
 * Parses the query language of docs/product.md, "The query language". Throws `QuerySyntaxError`.
 */
export function parseQuery(input: string): QueryNode {
  return parseSimpleQuery(input) ?? new Parser(input).parseQuery();
}

/** The general recursive-descent parser alone, without the fast path (for tests). */
export function parseQueryGeneral(input: string): QueryNode {
  return new Parser(input).parseQuery();
}

// --- The fast path --------------------------------------------------------------------------
// Most queries are a word, a quoted phrase, a few words, an OR of words or a word with an
// exclusion, in plain ASCII letters and digits. `parseSimpleQuery` reads exactly those in one
// pass, with no regular expression and no intermediate strings, and builds the tree the general
// parser builds; anything else (other characters, brackets, AND, fields, a misplaced OR or minus,
// any error) makes it return null, and the general parser decides. A property test checks that
// it never disagrees.

const SPACE = 32;
const QUOTE = 34;
const MINUS = 45;

function isAlphanumeric(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

/** 1 when `OR`, 2 when `AND` stands at `at` as a keyword (followed by a space, a quote or the end). */
function simpleKeyword(input: string, at: number): number {
  const first = input.charCodeAt(at);
  const size = first === 79 ? 2 : first === 65 ? 3 : 0;
  if (size === 0 || !input.startsWith(size === 2 ? 'OR' : 'AND', at)) return 0;
  const next = input.charCodeAt(at + size);
  if (at + size < input.length && next !== SPACE && next !== QUOTE) {
    return isAlphanumeric(next) ? 0 : -1;
  }
  return size === 2 ? 1 : 2;
}

/** The tree of a simple query (see above), or null when the general parser must decide. */
export function parseSimpleQuery(input: string): QueryNode | null {
  const length = input.length;
  let pos = 0;
  let children: QueryNode[] | null = null;
  let only: QueryNode | null = null;

  const primary = (): QueryNode | null => {
    const start = pos;
    const first = input.charCodeAt(pos);
    if (first === QUOTE) {
      const words: string[] = [];
      let wordStart = -1;
      let at = pos + 1;
      for (; at < length; at++) {
        const code = input.charCodeAt(at);
        if (isAlphanumeric(code)) {
          if (wordStart < 0) wordStart = at;
        } else if (code === SPACE || code === QUOTE) {
          if (wordStart >= 0) words.push(input.slice(wordStart, at).toLowerCase());
          wordStart = -1;
          if (code === QUOTE) break;
        } else return null;
      }
      if (at >= length || words.length === 0) return null;
      pos = at + 1;
      return {
        type: 'term',
        quoted: true,
        sequence: { words, gaps: null },
        start,
        end: pos,
      };
    }
    if (!isAlphanumeric(first)) return null;
    while (pos < length && isAlphanumeric(input.charCodeAt(pos))) pos++;
    if (pos < length && input.charCodeAt(pos) !== SPACE && input.charCodeAt(pos) !== QUOTE) {
      return null;
    }
    return {
      type: 'term',
      quoted: false,
      sequence: { words: [input.slice(start, pos).toLowerCase()], gaps: null },
      start,
      end: pos,
    };
  };

  const unary = (): QueryNode | null => {
    if (input.charCodeAt(pos) !== MINUS) return primary();
    const next = input.charCodeAt(pos + 1);
    if (pos + 1 >= length || (next !== QUOTE && !isAlphanumeric(next))) return null;
    pos++;
    if (simpleKeyword(input, pos) !== 0) return null;
    const child = primary();
    return child === null ? null : { type: 'not', child };
  };

  for (;;) {
    while (pos < length && input.charCodeAt(pos) === SPACE) pos++;
    if (pos >= length) break;
    if (simpleKeyword(input, pos) !== 0) return null;
    const first = unary();
    if (first === null) return null;
    let branches: QueryNode[] | null = null;
    for (;;) {
      let at = pos;
      while (at < length && input.charCodeAt(at) === SPACE) at++;
      const keyword = simpleKeyword(input, at);
      if (keyword < 0) return null;
      if (keyword !== 1) break;
      at += 2;
      while (at < length && input.charCodeAt(at) === SPACE) at++;
      if (at >= length || simpleKeyword(input, at) !== 0) return null;
      pos = at;
      const branch = unary();
      if (branch === null) return null;
      branches ??= [first];
      branches.push(branch);
    }
    const node: QueryNode = branches === null ? first : { type: 'or', children: branches };
    if (only === null) only = node;
    else {
      children ??= [only];
      children.push(node);
    }
  }
  if (only === null) return null;
  return children === null ? only : { type: 'and', children };
}

class Parser {
  private readonly input: string;
  private pos = 0;
  private depth = 0;

  constructor(input: string) {
    this.input = input;
  }

  parseQuery(): QueryNode {
    this.skipSpaces();
    if (this.pos >= this.input.length) throw new QuerySyntaxError('Type a word to watch for.', 0);
    const node = this.parseAnd();
    if (this.pos < this.input.length) {
      throw new QuerySyntaxError(
        'This closing bracket has no opening bracket before it.',
        this.pos,
      );
    }
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.input[this.pos + offset];
  }

  private skipSpaces(): void {
    while (isSpace(this.peek())) this.pos++;
  }

  /** The bare keyword (`OR`, `AND`) standing at the cursor, if any. */
  private keywordHere(): 'OR' | 'AND' | null {
    const first = this.input.charCodeAt(this.pos);
    if (first !== 79 && first !== 65) return null;
    for (const keyword of ['OR', 'AND'] as const) {
      if (
        this.input.startsWith(keyword, this.pos) &&
        endsToken(this.input[this.pos + keyword.length])
      ) {
        return keyword;
      }
    }
    return null;
  }

  private atGroupEnd(): boolean {
    return this.pos >= this.input.length || this.peek() === ')';
  }

  private parseAnd(): QueryNode {
    const children: QueryNode[] = [];
    for (;;) {
      this.skipSpaces();
      if (this.atGroupEnd()) break;
      if (this.keywordHere() === 'AND') {
        const at = this.pos;
        this.pos += 3;
        this.skipSpaces();
        if (children.length === 0 || this.atGroupEnd() || this.keywordHere() !== null) {
          throw new QuerySyntaxError(
            'AND needs a word on each side, like postgres AND mysql (or just postgres mysql).',
            at,
          );
        }
        continue;
      }
      pushFlat(children, 'and', this.parseOr());
    }
    return children.length === 1 ? children[0]! : { type: 'and', children };
  }

  private parseOr(): QueryNode {
    const children: QueryNode[] = [];
    if (this.keywordHere() === 'OR') {
      throw new QuerySyntaxError('OR needs a word on each side, like postgres OR mysql.', this.pos);
    }
    pushFlat(children, 'or', this.parseUnary());
    for (;;) {
      const save = this.pos;
      this.skipSpaces();
      if (this.keywordHere() !== 'OR') {
        this.pos = save;
        break;
      }
      const at = this.pos;
      this.pos += 2;
      this.skipSpaces();
      if (this.atGroupEnd() || this.keywordHere() !== null) {
        throw new QuerySyntaxError('OR needs a word on each side, like postgres OR mysql.', at);
      }
      pushFlat(children, 'or', this.parseUnary());
    }
    return children.length === 1 ? children[0]! : { type: 'or', children };
  }

  private parseUnary(): QueryNode {
    if (this.peek() !== '-') return this.parsePrimary();
    const at = this.pos;
    const next = this.peek(1);
    if (next === '-') {
      throw new QuerySyntaxError('Two minus signs in a row: use one, like -hiring.', at);
    }
    if (endsToken(next) && next !== '(' && !OPEN_QUOTES.has(next ?? '')) {
      throw new QuerySyntaxError(
        'A minus sign must stand right before what it excludes, like -hiring.',
        at,
      );
    }
    this.pos++;
    if (this.keywordHere() !== null) {
      throw new QuerySyntaxError(
        'A minus sign must stand right before what it excludes, like -hiring.',
        at,
      );
    }
    return { type: 'not', child: this.parsePrimary() };
  }

  private parsePrimary(): QueryNode {
    const char = this.peek();
    if (char === '(') return this.parseGroup();
    if (char === ')') {
      throw new QuerySyntaxError(
        'This closing bracket has no opening bracket before it.',
        this.pos,
      );
    }
    if (char !== undefined && OPEN_QUOTES.has(char)) return this.parsePhrase();
    return this.parseWord();
  }

  private parseGroup(): QueryNode {
    const open = this.pos;
    if (++this.depth > MAX_DEPTH) {
      throw new QuerySyntaxError('Too many brackets inside one another.', open);
    }
    this.pos++;
    this.skipSpaces();
    if (this.peek() === ')') {
      throw new QuerySyntaxError(
        'The brackets are empty: put words between them, like (postgres OR mysql).',
        open,
      );
    }
    const inner = this.parseAnd();
    if (this.peek() !== ')') {
      throw new QuerySyntaxError(
        'The bracket opened here is never closed: add a \u201c)\u201d.',
        open,
      );
    }
    this.pos++;
    this.depth--;
    return inner;
  }

  private parsePhrase(): QueryNode {
    const open = this.pos;
    let close = this.pos + 1;
    while (close < this.input.length && !CLOSE_QUOTES.has(this.input[close]!)) close++;
    const text = this.input.slice(open + 1, close);
    if (close >= this.input.length) {
      throw new QuerySyntaxError(`A closing quote is missing after ${quote(text.trim())}.`, open);
    }
    this.pos = close + 1;
    const star = text.indexOf('*');
    if (star >= 0) {
      throw new QuerySyntaxError(
        'A * does not work inside quotes: put it after a word, like rust*.',
        open + 1 + star,
      );
    }
    const chunks: Chunk[] = text.split(/\s+/u).map(analyseChunk);
    const sequence = buildSequence(chunks);
    if (sequence.words.length === 0) {
      throw new QuerySyntaxError(
        text.trim() === ''
          ? 'The quotes are empty: put words between them, like "open source".'
          : `${quote(text.trim())} has no letters or digits to look for.`,
        open,
      );
    }
    return { type: 'term', quoted: true, sequence, start: open, end: this.pos };
  }

  private readToken(): string {
    const start = this.pos;
    while (!endsToken(this.input[this.pos])) this.pos++;
    return this.input.slice(start, this.pos);
  }

  private parseWord(): QueryNode {
    const start = this.pos;
    const token = this.readToken();
    const colon = token.indexOf(':');
    const field = colon < 0 ? null : FIELD.exec(token.slice(0, colon + 1));
    if (field !== null) {
      const name = field[1]!.toLowerCase();
      this.pos = start + field[0].length;
      return name === 'title' ? this.parseTitle(start) : this.parseFilter(name, start);
    }
    const redditPrefix = token.includes('/') ? REDDIT_PREFIX.exec(token) : null;
    if (redditPrefix !== null) {
      return this.communityNode(token.slice(redditPrefix[0].length), start);
    }
    return parseTermToken(token, start);
  }

  private parseTitle(start: number): QueryNode {
    if (endsToken(this.peek()) && this.peek() !== '(' && !OPEN_QUOTES.has(this.peek() ?? '')) {
      throw new QuerySyntaxError('Write the word right after title:, like title:rust.', start);
    }
    const child = this.parsePrimary();
    if (holdsFilter(child)) {
      throw new QuerySyntaxError(
        'title: can only hold words, not site:, subreddit:, author:, intent:, sentiment: or lang:.',
        start,
      );
    }
    return { type: 'title', child };
  }

  private parseFilter(name: string, start: number): QueryNode {
    if (name === 'feed') return this.parseFeed(start);
    if (name === 'intent' || name === 'sentiment' || name === 'lang' || name === 'language') {
      return parseSignal(name === 'language' ? 'lang' : name, this.readToken(), start);
    }
    const value = this.readToken();
    if (value === '') {
      const example =
        name === 'site'
          ? 'site:reddit'
          : name === 'repo'
            ? 'repo:facebook/react'
            : `${name}:${name === 'author' ? 'pg' : 'rust'}`;
      throw new QuerySyntaxError(`Write a name right after ${name}:, like ${example}.`, start);
    }
    if (name === 'site') {
      const source = SITE_ALIASES.get(value.toLowerCase());
      if (source === undefined) {
        throw new QuerySyntaxError(
          `Unknown site ${quote(value)}: use ${SOURCES.map((s) => `site:${s}`).join(', ')}.`,
          start,
        );
      }
      return { type: 'site', source };
    }
    if (name === 'subreddit') return this.communityNode(value.replace(/^\/?r\//iu, ''), start);
    if (name === 'repo') return repoNode(value, start);
    return { type: 'author', name: normaliseName(value.replace(/^\/?u\//iu, '')) };
  }

  /**
   * `feed:"Name"` (or `feed:name`): items of the feed a user added under that name, which is its
   * items' community; the same as `site:feeds` with that community.
   */
  private parseFeed(start: number): QueryNode {
    let value: string;
    const open = this.peek();
    if (open !== undefined && OPEN_QUOTES.has(open)) {
      this.pos++;
      const from = this.pos;
      while (this.pos < this.input.length && !CLOSE_QUOTES.has(this.input[this.pos] ?? '')) {
        this.pos++;
      }
      if (this.pos >= this.input.length) {
        throw new QuerySyntaxError(
          'Close the quote after the feed’s name, like feed:"My blog".',
          start,
        );
      }
      value = this.input.slice(from, this.pos).trim();
      this.pos++;
    } else {
      value = this.readToken();
    }
    if (value === '') {
      throw new QuerySyntaxError(
        'Write a feed’s name right after feed:, like feed:"My blog".',
        start,
      );
    }
    return {
      type: 'and',
      children: [
        { type: 'site', source: 'feeds' },
        { type: 'community', name: normaliseName(value), feed: true },
      ],
    };
  }

  private communityNode(name: string, start: number): QueryNode {
    if (name === '') {
      throw new QuerySyntaxError('Write a name right after r/, like r/rust.', start);
    }
    return { type: 'community', name: normaliseName(name) };
  }
}

const SIGNAL_VALUES: Readonly<Record<'intent' | 'sentiment', readonly string[]>> = {
  intent: INTENTS,
  sentiment: SENTIMENTS,
};

/** `intent:`, `sentiment:` or `lang:` with its value, checked against the closed sets. */
function parseSignal(signal: SignalKind, raw: string, start: number): QueryNode {
  const value = raw.toLowerCase();
  if (signal === 'lang') {
    if (!LANGUAGE_PATTERN.test(value)) {
      throw new QuerySyntaxError(
        `Write a two-letter language code after lang:, like lang:en or lang:de${raw === '' ? '' : ` (not ${quote(raw)})`}.`,
        start,
      );
    }
    return { type: 'signal', signal, value };
  }
  const allowed = SIGNAL_VALUES[signal];
  if (!allowed.includes(value)) {
    throw new QuerySyntaxError(
      `${raw === '' ? `Write a value after ${signal}:, like` : `Unknown ${signal} ${quote(raw)}: use`} ${allowed.map((v) => `${signal}:${v}`).join(', ')}.`,
      start,
    );
  }
  return { type: 'signal', signal, value };
}

/** A GitHub repository as `owner/name` (also its address on github.com). */
const REPOSITORY =
  /^(?:https?:\/\/)?(?:www\.)?(?:github\.com\/)?([a-z0-9-]{1,39}\/[a-z0-9._-]{1,100})\/?$/iu;

/**
 * `repo:owner/name`: items of that GitHub repository, whose community it is; the same as
 * `site:github` with that community. A monitor naming one also makes the GitHub source read the
 * repository's issues and comments (decision 0042).
 */
function repoNode(value: string, start: number): QueryNode {
  const match = REPOSITORY.exec(value);
  if (match === null) {
    throw new QuerySyntaxError(
      `Write a repository as owner/name after repo:, like repo:facebook/react (not ${quote(value)}).`,
      start,
    );
  }
  return {
    type: 'and',
    children: [
      { type: 'site', source: 'github' },
      { type: 'community', name: normaliseName(match[1] as string), repo: true },
    ],
  };
}

/** Community and author names compare case-insensitively, as Reddit does. */
export function normaliseName(name: string): string {
  return /^[\x20-\x7e]*$/u.test(name) ? name.toLowerCase() : name.normalize('NFKC').toLowerCase();
}

function pushFlat(into: QueryNode[], type: 'and' | 'or', node: QueryNode): void {
  if (node.type === type) into.push(...node.children);
  else into.push(node);
}

/** Whether a query holds a site:, subreddit:, author: or signal filter anywhere. */
export function holdsFilter(node: QueryNode): boolean {
  switch (node.type) {
    case 'site':
    case 'community':
    case 'author':
    case 'signal':
      return true;
    case 'and':
    case 'or':
      return node.children.some(holdsFilter);
    case 'not':
    case 'title':
      return holdsFilter(node.child);
    default:
      return false;
  }
}

function parseTermToken(token: string, start: number): QueryNode {
  const end = start + token.length;
  const star = token.indexOf('*');
  if (star >= 0) {
    if (star !== token.length - 1) {
      throw new QuerySyntaxError('A * can only end a word, like rust*.', start + star);
    }
    const stem = token.slice(0, -1);
    const chunk = analyseChunk(stem);
    if (stem !== '' && (chunk.words.length !== 1 || chunk.gaps.some((gap) => gap !== ''))) {
      throw new QuerySyntaxError('A * can only end a plain word, like rust*.', start + star);
    }
    return { type: 'prefix', prefix: stem === '' ? '' : normaliseWordText(stem), start, end };
  }
  const sequence = buildSequence([analyseChunk(token)]);
  if (sequence.words.length === 0) {
    throw new QuerySyntaxError(`${quote(token)} has no letters or digits to look for.`, start);
  }
  return { type: 'term', quoted: false, sequence, start, end };
}
