import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { envSchema, parseConfig } from '../../src/config/env.ts';

// The documented configuration and the schema must not drift apart.
const root = new URL('../../', import.meta.url);
const schemaVariables = Object.keys(envSchema.shape).sort();

function exampleFile(): Record<string, string> {
  const entries = readFileSync(new URL('.env.example', root), 'utf8')
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => {
      const at = line.indexOf('=');
      return [line.slice(0, at), line.slice(at + 1)] as const;
    });
  return Object.fromEntries(entries);
}

test('.env.example documents every variable of the schema, and only those', () => {
  expect(Object.keys(exampleFile()).sort()).toEqual(schemaVariables);
});

test('.env.example, copied as it is, is a valid configuration', () => {
  expect(() => parseConfig(exampleFile())).not.toThrow();
});

test('the README table lists every variable', () => {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  for (const name of schemaVariables) expect(readme, name).toContain(`| \`${name}\` |`);
});
