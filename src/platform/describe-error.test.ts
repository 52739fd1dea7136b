import { expect, test } from 'vitest';
import { describeError } from './describe-error.ts';

test('a system error keeps its code, once', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), {
    code: 'ECONNREFUSED',
  });
  expect(describeError(refused)).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:25');
  const timeout = Object.assign(new Error('Greeting never received'), { code: 'ETIMEDOUT' });
  expect(describeError(timeout)).toBe('ETIMEDOUT: Greeting never received');
});

test('an AggregateError says its first cause', () => {
  const first = Object.assign(new Error('connect ECONNREFUSED ::1:25'), { code: 'ECONNREFUSED' });
  expect(describeError(new AggregateError([first, new Error('second')], ''))).toBe(
    'ECONNREFUSED: connect ECONNREFUSED ::1:25',
  );
});

test('a failed query says what the driver said, never the statement or its parameters', () => {
  const failed = new Error(
    'Failed query: insert into users values ($1)\nparams: secret@example.com',
    {
      cause: new Error('duplicate key value violates unique constraint "users_pkey"'),
    },
  );
  const line = describeError(failed);
  expect(line).toBe('database: duplicate key value violates unique constraint "users_pkey"');
  expect(line).not.toContain('secret@example.com');
});

test('one line, at most 300 characters', () => {
  expect(describeError(new Error('first line\n    at stack (file.ts:1:1)'))).toBe('first line');
  const long = describeError(new Error('x'.repeat(1000)));
  expect(long).toHaveLength(301);
  expect(long.endsWith('…')).toBe(true);
  expect(describeError('plain')).toBe('plain');
});
