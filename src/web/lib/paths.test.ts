import { expect, test } from 'vitest';
import { paths, safeRedirectTarget } from './paths.ts';

test('a redirect target must stay on this site', () => {
  const fallback = paths.dashboard.monitors.href();
  expect(safeRedirectTarget('/dashboard/alerts?monitor=1')).toBe('/dashboard/alerts?monitor=1');
  expect(safeRedirectTarget('/dashboard/settings#email')).toBe('/dashboard/settings#email');
  for (const hostile of [
    null,
    '',
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    // Browsers drop tabs and line breaks from URLs, and read a backslash as a slash.
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    '/\t\\evil.example',
    '/\\/evil.example',
    // A path that resolves to `//evil` is a protocol-relative URL to the router and history.
    '/.//evil.example',
    '/x/..//evil.example',
  ]) {
    expect(safeRedirectTarget(hostile)).toBe(fallback);
  }
});

test('the login link carries where the user wanted to go', () => {
  expect(paths.login.href('/dashboard/settings')).toBe(
    '/account/login?redirectTo=%2Fdashboard%2Fsettings',
  );
  expect(paths.login.href()).toBe('/account/login');
});
