import { useEffect } from 'react';

/** The browser's title of the home page (as in index.html). */
export const HOME_TITLE = 'Earshot — hear every mention, within seconds';

/** "Alerts (3) · Earshot": a page's title in the browser's tab and history. */
export function pageTitle(title: string | null): string {
  return title === null ? HOME_TITLE : `${title} · Earshot`;
}

/** Sets the document's title while the page is shown; `null` is the home page's. */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
