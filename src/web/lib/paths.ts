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

/** A redirect target from the query string, accepted only when it stays on this site. */
export function safeRedirectTarget(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return paths.dashboard.monitors.href();
  }
  return value;
}
