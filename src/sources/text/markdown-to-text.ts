import MarkdownIt from 'markdown-it';
import { tidyLines } from './html-to-text.ts';

// Reddit's `body` and `selftext` (with raw_json=1) are Markdown source. markdown-it parses it
// (CommonMark with tables and strikethrough, as Reddit has; HTML is text there, as on Reddit);
// the text is what a reader sees, and a link keeps its address so that `example.com` finds it.
// Reddit's own two marks, spoilers `>!…!<` and superscript `^word` / `^(…)`, are dropped here.

const parser = new MarkdownIt('default', { html: false, linkify: false });
// A link keeps its address as written (markdown-it would percent-encode it for an href).
parser.normalizeLink = (url) => url;

type Token = ReturnType<typeof parser.parse>[number];

/**
 * Text with none of Markdown's marks: no mark characters anywhere, no line that could open a
 * list, a heading, a rule or a code block. Most comments are such text, and for it the parse
 * gives back the lines, trimmed, with paragraphs apart (`markdown-to-text.test.ts` holds the
 * shortcut to `parseToText` on every recorded comment).
 */
const MARKS = /[\\`*_[\]!<>#~&|^]|^[ \t]*(?:[-+=]|\d+[.)])|^(?: {4}|\t)/mu;

/** Reddit Markdown to plain text. */
export function markdownToText(markdown: string): string {
  return MARKS.test(markdown) ? parseToText(markdown) : plainText(markdown);
}

/** Markdown to text by markdown-it's parse, marks or not. */
export function parseToText(markdown: string): string {
  const source = markdown.replace(/>!(.+?)!</gu, '$1');
  let text = '';
  for (const token of parser.parse(source, {})) {
    switch (token.type) {
      case 'inline':
        text += inlineText(token.children ?? []);
        break;
      case 'paragraph_close':
        text += token.hidden ? '\n' : '\n\n';
        break;
      case 'heading_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'table_close':
        text += '\n\n';
        break;
      case 'list_item_open':
        text +=
          token.markup === '.' || token.markup === ')' ? `${token.info}${token.markup} ` : '- ';
        break;
      case 'fence':
      case 'code_block':
        text += `${token.content}\n`;
        break;
      case 'th_close':
      case 'td_close':
        text += ' ';
        break;
      case 'tr_close':
        text += '\n';
        break;
    }
  }
  return tidyLines(text);
}

/** What the parse makes of text without marks: each line trimmed, paragraphs a blank line apart. */
function plainText(text: string): string {
  return tidyLines(
    text
      .split(/\r\n?|\n/u)
      .map((line) => line.replace(/^[ \t]+|[ \t]+$/gu, ''))
      .join('\n'),
  );
}

function inlineText(tokens: readonly Token[]): string {
  let text = '';
  // Where the current link's label starts in `text`, and its address.
  let link: { start: number; href: string } | null = null;
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        text += token.content.replace(/\^\(([^)]*)\)/gu, '$1').replace(/(^|\s)\^(?=\S)/gu, '$1');
        break;
      case 'code_inline':
        text += token.content;
        break;
      case 'softbreak':
      case 'hardbreak':
        text += '\n';
        break;
      case 'link_open':
        link = { start: text.length, href: String(token.attrGet('href') ?? '') };
        break;
      case 'link_close':
        if (link) text = withAddress(text, link.start, link.href);
        link = null;
        break;
      case 'image': {
        const start = text.length;
        text = withAddress(text + token.content, start, String(token.attrGet('src') ?? ''));
        break;
      }
    }
  }
  return text;
}

/** `label (url)`, or the bare address when the label is empty or the address itself. */
function withAddress(text: string, labelStart: number, href: string): string {
  const label = text.slice(labelStart).trim();
  if (href === '' || label === href) return text;
  if (label === '') return text.slice(0, labelStart) + href;
  return `${text} (${href})`;
}
