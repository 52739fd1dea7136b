import { type ReactNode, useState } from 'react';
import { Provider } from 'react-redux';
import { Toaster } from '../components/ui/sonner.tsx';
import { createStore } from './store.ts';

export function AppProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createStore());
  return (
    <Provider store={store}>
      {children}
      <Toaster />
    </Provider>
  );
}
