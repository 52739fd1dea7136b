import { describe, expect, it } from 'vitest';
import { createItemSnippet, createSnippet } from './snippet.ts';

const marked = (snippet: { text: string; highlights: readonly { start: number; end: number }[] }) =>
  snippet.highlights.map((h) => snippet.text.slice(h.start, h.end));

describe('createSnippet', () => {
  it('keeps a short text whole, collapsing whitespace', () => {
    const snippet = createSnippet('Rust  is\n\nfast', [{ start: 0, end: 4 }]);
    expect(snippet).toEqual({ text: 'Rust is fast', highlights: [{ start: 0, end: 4 }] });
  });

  it('cuts about 300 characters around the first hit at word boundaries', () => {
    const before = 'lorem ipsum dolor sit amet '.repeat(30);
    const text = `${before}pglite is here ${'consectetur adipiscing elit '.repeat(30)}`;
    const start = before.length;
    const snippet = createSnippet(text, [{ start, end: start + 6 }]);
    expect(snippet.text.length).toBeLessThanOrEqual(302);
    expect(snippet.text.length).toBeGreaterThan(250);
    expect(snippet.text.startsWith('\u2026')).toBe(true);
    expect(snippet.text.endsWith('\u2026')).toBe(true);
    expect(snippet.text).toMatch(/^\u2026\S+ .* \S+\u2026$/u);
    expect(marked(snippet)).toEqual(['pglite']);
    expect(snippet.highlights[0]!.start).toBeGreaterThan(60);
  });

  it('drops hits outside the excerpt and clips those across its edge', () => {
    const text = `rust ${'x '.repeat(400)}rust`;
    const snippet = createSnippet(text, [
      { start: 0, end: 4 },
      { start: text.length - 4, end: text.length },
    ]);
    expect(marked(snippet)).toEqual(['rust']);
  });

  it('never splits a surrogate pair', () => {
    const text = '🚀'.repeat(400);
    const snippet = createSnippet(text, [{ start: 200, end: 202 }]);
    expect(snippet.text).not.toMatch(/^\u2026?[\udc00-\udfff]|[\ud800-\udbff]\u2026?$/u);
  });

  it('starts at the beginning without hits', () => {
    expect(createSnippet('a b c', []).text).toBe('a b c');
  });
});

describe('createItemSnippet', () => {
  it('prefers the body, then the URL; never repeats the title', () => {
    expect(
      createItemSnippet({ title: 'T rust', body: 'body rust' }, [
        { field: 'body', start: 5, end: 9 },
      ]),
    ).toEqual({
      field: 'body',
      text: 'body rust',
      highlights: [{ start: 5, end: 9 }],
    });
    expect(
      createItemSnippet({ title: 'T rust', body: '' }, [{ field: 'title', start: 2, end: 6 }]),
    ).toEqual({ field: null, text: '', highlights: [] });
    const linkPost = { title: 'T rust', body: '', url: 'https://rust.example/x' };
    expect(createItemSnippet(linkPost, [{ field: 'title', start: 2, end: 6 }]).text).toBe('');
    expect(createItemSnippet(linkPost, [{ field: 'url', start: 8, end: 12 }])).toEqual({
      field: 'url',
      text: 'https://rust.example/x',
      highlights: [{ start: 8, end: 12 }],
    });
    expect(createItemSnippet({ title: '', body: '', url: 'https://x.io' }, []).field).toBe('url');
  });
});
