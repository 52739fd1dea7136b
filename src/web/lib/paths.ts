/** The only source of URLs in the web app: the router uses `path`, links use `href`. */
export const paths = {
  home: { path: '/', href: () => '/' },
  login: {
    path: '/account/login',
    href: (redirectTo?: string) =>
      redirectTo && redirectTo !== '/'
        ? `/account/login?redirectTo=${encodeURIComponent(redirectTo)}`
        : '/account/login',
  },
  signup: { path: '/account/signup', href: () => '/account/signup' },
  confirm: {
    path: '/account/confirm',
    href: (email?: string) =>
      email ? `/account/confirm?email=${encodeURIComponent(email)}` : '/account/confirm',
  },
  forgotPassword: { path: '/account/forgot-password', href: () => '/account/forgot-password' },
  resetPassword: {
    path: '/account/reset-password',
    href: (email?: string) =>
      email
        ? `/account/reset-password?email=${encodeURIComponent(email)}`
        : '/account/reset-password',
  },
  unsubscribe: { path: '/unsubscribe', href: () => '/unsubscribe' },
  feedback: { path: '/feedback', href: () => '/feedback' },
  mute: { path: '/mute', href: () => '/mute' },
  about: {
    path: '/about',
    /** `section`: the id of a heading on the page (`sites`, `delete`). */
    href: (section?: 'sites' | 'delete') => (section ? `/about#${section}` : '/about'),
  },
  dashboard: {
    monitors: { path: '/dashboard/monitors', href: () => '/dashboard/monitors' },
    alerts: { path: '/dashboard/alerts', href: () => '/dashboard/alerts' },
    settings: { path: '/dashboard/settings', href: () => '/dashboard/settings' },
  },
} as const;

/**
 * A redirect target from the query string, accepted only when it is a path of this site. It is
 * resolved as the browser would (tabs and line breaks dropped, `\\` read as `/`, dot segments
 * removed) and kept only when it stays on this origin and is not protocol-relative (`//host`,
 * which history and the router refuse with an error).
 */
export function safeRedirectTarget(value: string | null): string {
  const fallback = paths.dashboard.monitors.href();
  if (!value?.startsWith('/')) return fallback;
  const base = 'https://earshot.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base || url.pathname.startsWith('//')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
