import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { restoreSession } from '../../lib/session/restore-session.ts';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks.ts';

/**
 * docs/product.md, "The session in the browser": UNDETERMINED and REFRESHING_TOKEN show the
 * skeleton, VALID_TOKEN shows the page, FAILED redirects to the login page (remembering where the
 * user wanted to go).
 */
export function AuthGate({ skeleton, children }: { skeleton: ReactNode; children: ReactNode }) {
  const authState = useAppSelector((state) => state.session.authState);
  const loggedOutByUser = useAppSelector((state) => state.session.loggedOutByUser);
  const dispatch = useAppDispatch();
  const location = useLocation();

  useEffect(() => {
    if (authState === 'UNDETERMINED') void dispatch(restoreSession());
  }, [authState, dispatch]);

  if (authState === 'VALID_TOKEN') return children;
  if (authState === 'FAILED') {
    const target = loggedOutByUser ? undefined : location.pathname + location.search;
    return <Navigate to={paths.login.href(target)} replace />;
  }
  return skeleton;
}
