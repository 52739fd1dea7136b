import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider.tsx';
import { createRouter } from './app/router.tsx';
import { initAnalytics } from './lib/analytics.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import './styles.css';

const router = createRouter();

// Analytics must never delay or break the app: its configuration is fetched in the background.
loadRuntimeConfig()
  .then((config) => initAnalytics(config.analytics))
  .catch(() => {});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
