import { describe, expect, test } from 'vitest';
import { describeApiError, readApiError } from './api.ts';

describe('reading API errors', () => {
  const answered = {
    status: 400,
    data: {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'The request is not valid (timezone): must be an IANA time zone.',
        details: [{ path: 'timezone', message: 'must be an IANA time zone' }],
      },
    },
  };

  test('an answer in the JSON error shape gives its code, message and details', () => {
    expect(readApiError(answered)).toEqual(answered.data.error);
    expect(describeApiError(answered)).toBe(answered.data.error.message);
  });

  test('anything else is not read as an API error, and gets a sentence of its own', () => {
    const proxyPage = { status: 502, data: '<html>Bad gateway</html>' };
    const wrongShape = { status: 400, data: { error: { message: 42 } } };
    expect(readApiError(proxyPage)).toBeUndefined();
    expect(readApiError(wrongShape)).toBeUndefined();
    expect(describeApiError(proxyPage)).toMatch(/problem on its side/);
    expect(describeApiError(wrongShape)).toMatch(/could not be completed/);
    expect(describeApiError({ status: 'FETCH_ERROR', error: 'TypeError' })).toMatch(
      /Cannot reach Earshot/,
    );
    expect(describeApiError({ status: 'TIMEOUT_ERROR', error: 'AbortError' })).toMatch(/too long/);
  });
});
