import { type ReactNode, useState } from 'react';
import { Provider } from 'react-redux';
import { connectSessionToApi } from '../lib/session/session-hooks.ts';
import { createStore } from './store.ts';

export function AppProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => {
    const created = createStore();
    // Before the first render: a page's first API call already needs the session hooks.
    connectSessionToApi(created.dispatch);
    return created;
  });
  return <Provider store={store}>{children}</Provider>;
}
