import { z } from 'zod';
import { CognitoError } from './errors.ts';

/**
 * Request members with Cognito's constraints, and the translation of a zod failure into the
 * answers AWS gives: a member of the wrong JSON type → SerializationException; a missing member
 * or a broken constraint → InvalidParameterException "1 validation error detected: Value null at
 * 'clientId' failed to satisfy constraint: Member must not be null". Values are never echoed:
 * many members are passwords, codes or tokens.
 */

/** A string member with the model's length bounds and pattern (shown as AWS shows it). */
export function member(options: { min?: number; max?: number; pattern?: string }) {
  let schema = z.string();
  if (options.min !== undefined) schema = schema.min(options.min);
  if (options.max !== undefined) schema = schema.max(options.max);
  if (options.pattern !== undefined) {
    schema = schema.regex(new RegExp(`^(?:${options.pattern})$`, 'su'), {
      message: `Member must satisfy regular expression pattern: ${options.pattern}`,
    });
  }
  return schema;
}

// Constraints of the Cognito model (ClientIdType, UsernameType, PasswordType, …).
export const clientIdMember = member({ min: 1, max: 128, pattern: '[\\w+]+' });
export const usernameMember = member({
  min: 1,
  max: 128,
  pattern: '[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+',
});
export const passwordMember = member({ max: 256, pattern: '[\\S]+.*[\\S]+' });
export const secretHashMember = member({ min: 1, max: 128, pattern: '[\\w+=/]+' });
export const clientSecretMember = member({ min: 1, max: 64, pattern: '[\\w+]+' });
export const codeMember = member({ min: 1, max: 2048, pattern: '[\\S]+' });
export const tokenMember = member({ max: 16_384, pattern: '[A-Za-z0-9-_=.]+' });
export const refreshTokenMember = member({ min: 1, max: 16_384, pattern: '[\\S]+' });
export const attributeListMember = z
  .array(
    z.object({
      Name: member({ min: 1, max: 32, pattern: '[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+' }),
      Value: member({ max: 2048 }).optional(),
    }),
  )
  .max(50);
/** ClientMetadata, AnalyticsMetadata, UserContextData…: accepted and ignored. */
export const ignoredMap = z.record(z.string(), z.string()).optional();

/** The members of every unauthenticated operation that names a user (ForgotPassword, …). */
export const namedUserInput = z.object({
  ClientId: clientIdMember,
  Username: usernameMember,
  SecretHash: secretHashMember.optional(),
  ClientMetadata: ignoredMap,
});

export function parseInput<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const typeIssue = result.error.issues.find(
    (issue) => issue.code === 'invalid_type' && valueAt(body, issue.path) != null,
  );
  if (typeIssue) {
    throw new CognitoError(
      'SerializationException',
      `Value at '${memberPath(typeIssue.path)}' must be ${article(typeIssue)}.`,
    );
  }
  const problems = result.error.issues.map((issue) => {
    const missing = valueAt(body, issue.path) == null;
    const value = missing ? 'Value null' : 'Value';
    return `${value} at '${memberPath(issue.path)}' failed to satisfy constraint: ${constraint(issue, missing)}`;
  });
  const count =
    problems.length === 1 ? '1 validation error' : `${problems.length} validation errors`;
  throw new CognitoError('InvalidParameterException', `${count} detected: ${problems.join('; ')}`);
}

function constraint(issue: z.core.$ZodIssue, missing: boolean): string {
  if (missing) return 'Member must not be null';
  switch (issue.code) {
    case 'too_small':
      return `Member must have length greater than or equal to ${issue.minimum}`;
    case 'too_big':
      return `Member must have length less than or equal to ${issue.maximum}`;
    case 'invalid_value':
      return `Member must satisfy enum value set: [${issue.values.map(String).join(', ')}]`;
    default:
      return issue.message;
  }
}

/** `['UserAttributes', 0, 'Value']` → `userAttributes.1.member.value`, as AWS names members. */
export function memberPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment) =>
      typeof segment === 'number'
        ? `${segment + 1}.member`
        : String(segment).replace(/^[A-Z]/, (first) => first.toLowerCase()),
    )
    .join('.');
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current = body;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function article(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_type') return 'valid';
  const expected = String(issue.expected);
  if (expected === 'object' || expected === 'record') return 'a JSON object';
  if (expected === 'array') return 'a JSON array';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
