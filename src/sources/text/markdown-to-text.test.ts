import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { markdownToText, parseToText } from './markdown-to-text.ts';

const recorded = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');

function redditTexts(): string[] {
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) collect(v);
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if ((key === 'body' || key === 'selftext') && typeof v === 'string' && v !== '')
          texts.push(v);
        else collect(v);
      }
    }
  };
  for (const file of readdirSync(recorded).filter((f) => /^reddit-.*\.json$/.test(f)))
    collect(JSON.parse(readFileSync(path.join(recorded, file), 'utf8')));
  return texts;
}

test('the shortcut for text without marks gives what the parse gives, on every recorded comment', () => {
  const texts = redditTexts();
  expect(texts.length).toBeGreaterThan(2000);
  for (const text of texts) expect(markdownToText(text), text).toBe(parseToText(text));
});

test.each([
  'plain words\n\nanother paragraph   \nline two',
  '  leading spaces, three of them, then text\r\nand a CRLF',
  'a line\n\n\n\nfar below',
  '1) not plain\n2) a list',
  '    four spaces: code',
  'Heading\n===',
  'x - y + z = 1, and 2.5 apples',
])('%j: the shortcut and the parse agree', (text) => {
  expect(markdownToText(text)).toBe(parseToText(text));
});

test('angle brackets the author wrote stay as written: raw HTML in Markdown is text here', () => {
  expect(markdownToText('if a <b then <a')).toBe('if a <b then <a');
  expect(markdownToText('use <kbd>Ctrl</kbd>')).toBe('use <kbd>Ctrl</kbd>');
});
