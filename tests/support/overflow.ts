import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const PROBE = readFileSync(new URL('./overflow-probe.js', import.meta.url), 'utf8');

/** What sticks out of a page or of its open dialogs; every number is in CSS pixels. */
export type Overflow = {
  /** How far the page scrolls sideways: `scrollWidth - innerWidth`, 0 when it does not. */
  page: number;
  /** The outermost elements reaching past the viewport's right edge (for the failure message). */
  pageOffenders: string[];
  /** Per open dialog: elements wider than the dialog or reaching past its edges. */
  dialogs: { dialog: string; offenders: string[] }[];
};

/**
 * Measures what is wider than the viewport, and what in an open dialog (`role=dialog` or
 * `alertdialog`, Radix's or Vaul's) reaches past the dialog's box. A descendant inside an
 * element that clips or scrolls sideways on its own (`truncate`, `overflow-x-auto`) is judged by
 * that element. A 1 px screen-reader box is left out, but not a table marked `sr-only`: a table
 * never shrinks below its content, so it stays as wide as its text and widens the page. Each
 * offender is named with what makes it that wide. Run on a settled page.
 */
export function measureOverflow(page: Page): Promise<Overflow> {
  return page.evaluate<Overflow>(PROBE);
}
