import { html } from 'htm/react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * The HTML the server writes (emails, alert feeds' entries) is built as React elements with
 * `html` tagged templates (htm: JSX's syntax without a build step, which the server has none of)
 * and written by React's server renderer, so every value put in text or an attribute is escaped
 * by construction: no string of a post or a user reaches the markup unescaped, and nobody has to
 * remember to escape it (docs/decisions/0047-server-html-with-react.md).
 */
export { html };

/** An HTML document: the doctype and `root` (an `<html>` element), rendered. */
export function renderHtmlDocument(root: ReactElement): string {
  return `<!doctype html>\n${renderToStaticMarkup(root)}\n`;
}

/** A piece of HTML (an alert feed's entry content), rendered. */
export function renderHtmlFragment(element: ReactElement): string {
  return renderToStaticMarkup(element);
}
