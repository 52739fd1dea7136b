import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { HomePage } from './features/home/home-page.tsx';

/**
 * The home page as HTML, rendered at build time (scripts/prerender-home.ts) so `/` paints before
 * any script has loaded; the app then mounts over it with the same markup.
 */
export function renderHomePage(): string {
  return renderToString(
    <MemoryRouter initialEntries={['/']}>
      <HomePage />
    </MemoryRouter>,
  );
}
