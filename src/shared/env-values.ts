import { z } from 'zod';

// Value schemas the environment's settings share (src/config/env.ts and each source's settings).

export const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^\s/]+/.test(value) && URL.canParse(value), {
    message: 'must be an http:// or https:// URL',
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** Empty strings count as unset, so `FOO=` in a .env file means "use the default". */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const withDefault = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema);

/** A poll interval: seconds, fractions allowed (tests poll several times a second). */
export const pollSeconds = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of seconds between 0.1 and 3600' })
    .min(0.1, 'must be at least 0.1 seconds')
    .max(3600, 'must be at most 3600 seconds')
    .default(fallback);

export const count = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number between ${min} and ${max}` })
    .int(`must be a whole number between ${min} and ${max}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .default(fallback);
