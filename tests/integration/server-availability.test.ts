import { afterEach, expect, test, vi } from 'vitest';
import { SERVER_HINT, serverAvailability } from '../support/server-database.ts';

// How the tests that need a PostgreSQL server behave where none answers (pointed at a port
// where nothing listens).
const NOWHERE = 'postgres://root@127.0.0.1:1/test';

afterEach(() => {
  vi.restoreAllMocks();
});

test('without a server and without CI, they are skipped with a visible warning that says how to get one', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  expect(await serverAvailability({}, NOWHERE)).toEqual({ run: false });
  expect(warn).toHaveBeenCalledOnce();
  expect(String(warn.mock.calls[0]?.[0])).toContain('SKIPPING TESTS THAT NEED A POSTGRESQL SERVER');
  expect(String(warn.mock.calls[0]?.[0])).toContain(SERVER_HINT);
});

test.each(['true', '1'])('with CI=%s a missing server fails', async (ci) => {
  await expect(serverAvailability({ CI: ci }, NOWHERE)).rejects.toThrow(SERVER_HINT);
});

test('a server named by DATABASE_URL is used as given (a wrong one fails where it is used)', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  expect(await serverAvailability({ DATABASE_URL: NOWHERE }, NOWHERE)).toEqual({ run: true });
  expect(warn).not.toHaveBeenCalled();
});
