import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CognitoError } from './errors.ts';
import { clientIdMember, memberPath, parseInput, passwordMember } from './validation.ts';

const failure = (schema: z.ZodType, body: unknown) => {
  try {
    parseInput(schema, body);
  } catch (error) {
    expect(error).toBeInstanceOf(CognitoError);
    return { type: (error as CognitoError).type, message: (error as CognitoError).message };
  }
  throw new Error('expected a failure');
};

describe('parseInput', () => {
  const schema = z.object({
    ClientId: clientIdMember,
    Password: passwordMember,
    Flow: z.enum(['A', 'B']).optional(),
  });

  test('a missing member is "Value null … Member must not be null"', () => {
    expect(failure(schema, { Password: 'Secret-1' })).toEqual({
      type: 'InvalidParameterException',
      message:
        "1 validation error detected: Value null at 'clientId' failed to satisfy constraint: Member must not be null",
    });
  });

  test('several problems are counted and joined', () => {
    expect(failure(schema, {}).message).toMatch(
      /^2 validation errors detected: .*'clientId'.*; .*'password'/,
    );
  });

  test('lengths, patterns and enums in AWS’s words, without the value', () => {
    expect(failure(schema, { ClientId: '', Password: 'Secret-1' }).message).toContain(
      'Member must have length greater than or equal to 1',
    );
    expect(failure(schema, { ClientId: 'a'.repeat(129), Password: 'Secret-1' }).message).toContain(
      'Member must have length less than or equal to 128',
    );
    const pattern = failure(schema, { ClientId: 'abc', Password: ' Secret-1' }).message;
    expect(pattern).toContain(
      "Value at 'password' failed to satisfy constraint: Member must satisfy regular expression pattern",
    );
    expect(pattern).not.toContain('Secret-1');
    expect(failure(schema, { ClientId: 'abc', Password: 'Secret-1', Flow: 'C' }).message).toContain(
      'Member must satisfy enum value set: [A, B]',
    );
  });

  test('a member of the wrong JSON type is a SerializationException', () => {
    expect(failure(schema, { ClientId: 7, Password: 'Secret-1' })).toEqual({
      type: 'SerializationException',
      message: "Value at 'clientId' must be a string.",
    });
  });
});

test('memberPath names members as AWS does', () => {
  expect(memberPath(['UserAttributes', 0, 'Value'])).toBe('userAttributes.1.member.value');
  expect(memberPath(['AuthParameters', 'USERNAME'])).toBe('authParameters.uSERNAME');
});
