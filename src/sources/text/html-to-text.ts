// Hacker News sends comment and story text as a small subset of HTML (<p>, <i>, <b>, <a>,
// <pre><code>) with entities; Lobsters' `description` and `comment` are fuller HTML.

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  shy: '\u00ad',
  hellip: '\u2026',
  mdash: '\u2014',
  ndash: '\u2013',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  laquo: '\u00ab',
  raquo: '\u00bb',
  bull: '\u2022',
  middot: '\u00b7',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  deg: '\u00b0',
  times: '\u00d7',
  divide: '\u00f7',
  euro: '\u20ac',
  pound: '\u00a3',
  yen: '\u00a5',
  cent: '\u00a2',
  eacute: '\u00e9',
  egrave: '\u00e8',
  aacute: '\u00e1',
  agrave: '\u00e0',
  ouml: '\u00f6',
  uuml: '\u00fc',
  auml: '\u00e4',
  szlig: '\u00df',
  ccedil: '\u00e7',
  ntilde: '\u00f1',
};

/** Decodes numeric entities and the common named ones; an unknown entity stays as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/giu, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name] ?? NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** HTML to plain text: block ends become line breaks, tags go, entities are decoded. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/giu, '')
    .replace(/<br\s*\/?>/giu, '\n')
    .replace(/<li\b[^>]*>/giu, '\n- ')
    .replace(/<\/?(p|div|pre|blockquote|ul|ol|h[1-6]|tr|table)\b[^>]*>/giu, '\n\n')
    .replace(/<[^>]*>/gu, '');
  return decodeEntities(text)
    .replace(/[ \t]+\n/gu, '\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}
