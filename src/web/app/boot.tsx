import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { Toaster } from '../components/ui/sonner.tsx';
import { takeAddressSecrets } from '../lib/address-secrets.ts';
import { initAnalytics } from '../lib/analytics.ts';
import { loadRuntimeConfig } from '../lib/runtime-config.ts';
import { AppProvider } from './provider.tsx';
import { createRouter } from './router.tsx';

/**
 * Starts the app. On a prerendered page (the home page) React hydrates the markup already on
 * screen instead of replacing it; elsewhere it renders into the empty #root. Toasts live in their
 * own root, so the prerendered markup and the app's first render are the same.
 */
export function boot(root: HTMLElement, prerendered: boolean): void {
  // Before analytics can read the address (src/web/lib/address-secrets.ts).
  takeAddressSecrets();
  // Analytics must never delay or break the app: its configuration is fetched in the background.
  loadRuntimeConfig()
    .then((config) => initAnalytics(config.analytics))
    .catch(() => {});

  const app = (
    <StrictMode>
      <AppProvider>
        <RouterProvider router={createRouter()} />
      </AppProvider>
    </StrictMode>
  );
  if (prerendered) hydrateRoot(root, app);
  else createRoot(root).render(app);

  const toasts = document.createElement('div');
  toasts.id = 'toasts';
  document.body.append(toasts);
  createRoot(toasts).render(<Toaster />);
}
