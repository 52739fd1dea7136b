import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';
import { errors } from './errors.ts';

/**
 * Cognito's password policy; the default is the one of a new pool (docs/product.md,
 * "Password policy").
 */
export type PasswordPolicy = {
  minimumLength: number;
  requireUppercase: boolean;
  requireLowercase: boolean;
  requireNumbers: boolean;
  requireSymbols: boolean;
};

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minimumLength: 8,
  requireUppercase: true,
  requireLowercase: true,
  requireNumbers: true,
  requireSymbols: true,
};

// Cognito's symbol set, space included; "upper" and "lower" mean Basic Latin letters.
const SYMBOLS = new Set('^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- ');

/** Throws InvalidPasswordException naming the first rule the password breaks, as Cognito does. */
export function checkPasswordPolicy(password: string, policy: PasswordPolicy): void {
  const characters = [...password];
  if (characters.length < policy.minimumLength)
    throw errors.invalidPassword('Password not long enough');
  const has = (test: (character: string) => boolean) => characters.some(test);
  if (policy.requireUppercase && !has((c) => c >= 'A' && c <= 'Z')) {
    throw errors.invalidPassword('Password must have uppercase characters');
  }
  if (policy.requireLowercase && !has((c) => c >= 'a' && c <= 'z')) {
    throw errors.invalidPassword('Password must have lowercase characters');
  }
  if (policy.requireNumbers && !has((c) => c >= '0' && c <= '9')) {
    throw errors.invalidPassword('Password must have numeric characters');
  }
  if (policy.requireSymbols && !has((c) => SYMBOLS.has(c))) {
    throw errors.invalidPassword('Password must have symbol characters');
  }
}

/** argon2id cost. OWASP's minimum is 19 MiB and 2 passes; configuration cannot go below it. */
export type PasswordHashCost = { memoryKib: number; passes: number };

export const OWASP_MINIMUM_COST: PasswordHashCost = { memoryKib: 19_456, passes: 2 };

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  /** Constant-ish time whether or not `stored` exists: pass null for an unknown user. */
  verify(stored: string | null, password: string): Promise<boolean>;
  /** True when `stored` was made with a lower cost than the current one (rehash at sign-in). */
  needsRehash(stored: string): boolean;
};

const ARGON2ID = 2 as Algorithm;

/**
 * argon2id through @node-rs/argon2, which hashes on libuv's thread pool so the event loop stays
 * free. An unknown user still costs one verification (against a fixed dummy hash) so timing does
 * not tell which accounts exist.
 */
export function createPasswordHasher(cost: PasswordHashCost): PasswordHasher {
  const options = {
    algorithm: ARGON2ID,
    memoryCost: cost.memoryKib,
    timeCost: cost.passes,
    parallelism: 1,
  };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    async verify(stored, password) {
      if (stored === null) {
        dummy ??= hash('not a password of anyone', options);
        await verify(await dummy, password);
        return false;
      }
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    needsRehash(stored) {
      try {
        const used = parseOptions(stored);
        return (
          used.algorithm !== ARGON2ID ||
          used.memoryCost < cost.memoryKib ||
          used.timeCost < cost.passes
        );
      } catch {
        return true;
      }
    },
  };
}
