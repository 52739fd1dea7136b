import { Parser } from 'htmlparser2';

// Hacker News sends comment and story text as a small subset of HTML (<p>, <i>, <b>, <a>,
// <pre><code>) with entities; Lobsters' `description` and `comment` are fuller HTML. htmlparser2
// reads it as a browser would (a stray `<` is text, every named entity of HTML is decoded); this
// file only says where the line breaks go.

/** Elements that start and end a block: a blank line before and after. */
const BLOCKS = new Set([
  'p',
  'div',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'table',
]);
/** Elements whose content is never text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'template']);

/** HTML to plain text: blocks become blank lines, list items `- ` lines, tags go, entities are decoded. */
export function htmlToText(html: string): string {
  let text = '';
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        else if (name === 'br') text += '\n';
        else if (name === 'li') text += '\n- ';
        else if (BLOCKS.has(name)) text += '\n\n';
      },
      ontext(data) {
        if (hidden === 0) text += data;
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCKS.has(name)) text += '\n\n';
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return tidyLines(text);
}

/** Trailing spaces off each line, at most one blank line in a row, no blank ends. */
export function tidyLines(text: string): string {
  return text
    .replace(/[ \t]+\n/gu, '\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}
