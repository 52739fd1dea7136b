import { type ReactNode, useState } from 'react';
import { Provider } from 'react-redux';
import { connectSessionToApi } from '../lib/session/session-hooks.ts';
import { createStore } from '../lib/store.ts';

let pageStore: ReturnType<typeof createStore> | undefined;

/**
 * The page's one store, with the session hooks connected to it before the first render (a page's
 * first API call already needs them). Made once: StrictMode runs state initializers twice in
 * development and test builds and keeps the first result, so hooks connected to a second store
 * would feed a store nobody renders (a refused refresh then never reached the auth gate).
 */
function appStore() {
  if (!pageStore) {
    pageStore = createStore();
    connectSessionToApi(pageStore.dispatch);
  }
  return pageStore;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [store] = useState(appStore);
  return <Provider store={store}>{children}</Provider>;
}
