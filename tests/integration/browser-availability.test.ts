import { afterEach, expect, test, vi } from 'vitest';
import { browserAvailability, INSTALL_HINT } from '../support/browser.ts';

// How the browser suite behaves on a machine without Chromium (it has one here, so the search
// is pointed at paths that do not exist).
const NOWHERE = ['/nonexistent/chromium', undefined];

afterEach(() => {
  vi.restoreAllMocks();
});

test('without a browser and without CI, the suite is skipped with a visible warning that says how to install one', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  expect(browserAvailability(NOWHERE, {})).toEqual({ run: false });
  expect(warn).toHaveBeenCalledOnce();
  expect(String(warn.mock.calls[0]?.[0])).toContain('SKIPPING THE BROWSER SUITE');
  expect(String(warn.mock.calls[0]?.[0])).toContain('apt-get install -y chromium');
});

test.each(['true', '1'])('with CI=%s a missing browser fails', (ci) => {
  expect(() => browserAvailability(NOWHERE, { CI: ci })).toThrow(INSTALL_HINT);
});

test('a browser that exists is used', () => {
  expect(browserAvailability([process.execPath], { CI: 'true' })).toEqual({
    run: true,
    path: process.execPath,
  });
});
