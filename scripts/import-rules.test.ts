import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import { afterEach, describe, expect, test } from 'vitest';
import importRules from '../.dependency-cruiser.ts';

/**
 * The import rules of .dependency-cruiser.ts on small planted trees: each forbidden import is
 * refused under its rule, and the imports the layers allow pass. The same configuration as
 * `npm run check:imports`, so a rule loosened there fails here.
 */

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** Writes `files` (path → the paths it imports) under a fresh folder and checks them. */
async function check(files: Record<string, string[]>): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
  root = dir;
  for (const [file, imports] of Object.entries(files)) {
    const source = imports
      .map((target, i) => {
        let specifier = path.posix.relative(path.posix.dirname(file), target);
        if (!specifier.startsWith('.')) specifier = `./${specifier}`;
        return `import { x${i} } from '${specifier}';\n`;
      })
      .join('');
    mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
    writeFileSync(path.join(dir, file), `${source}export const x = 1;\n`);
    // Every imported file exists, so each import resolves.
    for (const target of imports) {
      mkdirSync(path.join(dir, path.dirname(target)), { recursive: true });
      if (!(target in files)) writeFileSync(path.join(dir, target), 'export const x = 1;\n');
    }
  }
  const { options, ...ruleSet } = importRules;
  // What `npm run check:imports` cruises; tests/ and bench/ are harnesses.
  const roots = ['src', 'scripts'].filter((top) =>
    Object.keys(files).some((f) => f.startsWith(`${top}/`)),
  );
  const result = await cruise(roots, {
    ...options,
    // The real tree's temporary exceptions name real files; they do not apply here.
    knownViolations: [],
    baseDir: dir,
    ruleSet,
    validate: true,
  });
  if (typeof result.output === 'string') throw new Error(result.output);
  return result.output.summary.violations.map(
    (violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`,
  );
}

describe('a planted import that breaks a rule fails the check', () => {
  test.each([
    [
      'delivery → server',
      'src/delivery/send.ts',
      'src/server/create-app.ts',
      'delivery-imports-only-below',
    ],
    [
      'pipeline → server',
      'src/pipeline/worker.ts',
      'src/server/create-app.ts',
      'pipeline-imports-only-below',
    ],
    [
      'sources → pipeline',
      'src/sources/hn/connector.ts',
      'src/pipeline/worker.ts',
      'sources-imports-only-below',
    ],
    [
      'sources → config',
      'src/sources/hn/plugin.ts',
      'src/config/env.ts',
      'sources-imports-only-below',
    ],
    [
      'sources → replay',
      'src/sources/hn/replay.ts',
      'src/replay/corpus.ts',
      'sources-imports-only-below',
    ],
    [
      'platform → config',
      'src/platform/mailer.ts',
      'src/config/env.ts',
      'platform-imports-only-below',
    ],
    [
      'identity → server',
      'src/identity/port.ts',
      'src/server/app-deps.ts',
      'identity-imports-only-below',
    ],
    [
      'identity → delivery',
      'src/identity/codes.ts',
      'src/delivery/mailer.ts',
      'identity-imports-only-below',
    ],
    [
      'server → delivery',
      'src/server/routes/x.ts',
      'src/delivery/tokens.ts',
      'server-imports-only-below',
    ],
    [
      'server → pipeline',
      'src/server/live/x.ts',
      'src/pipeline/events.ts',
      'server-imports-only-below',
    ],
    [
      'delivery → core',
      'src/delivery/decide.ts',
      'src/core/matches/to-match.ts',
      'delivery-imports-only-below',
    ],
    [
      'pipeline → core',
      'src/pipeline/x.ts',
      'src/core/sources/x.ts',
      'pipeline-imports-only-below',
    ],
    ['matcher → db', 'src/matcher/index.ts', 'src/db/client.ts', 'matcher-imports-only-below'],
    ['web → server', 'src/web/lib/api.ts', 'src/server/create-app.ts', 'web-imports-only-below'],
    [
      'a web feature → another feature’s internals',
      'src/web/features/settings/form.tsx',
      'src/web/features/auth/code-parts.tsx',
      'web-features-import-each-other-through-index',
    ],
    [
      'a web feature → app',
      'src/web/features/alerts/feed.ts',
      'src/web/app/hooks.ts',
      'web-app-composes-features',
    ],
    [
      'web lib → a feature',
      'src/web/lib/x.ts',
      'src/web/features/alerts/feed.ts',
      'web-shared-parts-import-no-feature',
    ],
    [
      'a script → server',
      'scripts/x.ts',
      'src/server/create-app.ts',
      'entry-points-only-import-server',
    ],
    ['a folder without a layer', 'src/jobs/x.ts', 'src/db/client.ts', 'every-folder-has-a-layer'],
    ['src → tests', 'src/db/client.ts', 'tests/support/x.ts', 'src-imports-no-harness'],
  ])('%s', async (_, from, to, rule) => {
    expect(await check({ [from]: [to] })).toContain(`${rule}: ${from} → ${to}`);
  });

  test('a folder cycle', async () => {
    const violations = await check({
      'src/core/monitors/create.ts': ['src/core/webhooks/set.ts'],
      'src/core/webhooks/set.ts': ['src/core/monitors/get.ts'],
    });
    expect(violations).toEqual(
      expect.arrayContaining([
        'no-folder-cycle: src/core/monitors → src/core/webhooks',
        'no-folder-cycle: src/core/webhooks → src/core/monitors',
      ]),
    );
  });

  test('two web features importing each other, even through their index.ts', async () => {
    const violations = await check({
      'src/web/features/settings/page.tsx': ['src/web/features/auth/index.ts'],
      'src/web/features/auth/index.ts': ['src/web/features/settings/index.ts'],
    });
    expect(violations).toContain(
      'no-folder-cycle: src/web/features/settings → src/web/features/auth',
    );
  });
});

test('the imports the layers allow pass', async () => {
  expect(
    await check({
      'src/main.ts': [
        'src/server/create-app.ts',
        'src/pipeline/worker.ts',
        'src/delivery/start.ts',
      ],
      'src/worker-main.ts': ['src/main.ts'],
      'src/server/create-app.ts': [
        'src/core/monitors/create.ts',
        'src/identity/port.ts',
        'src/matches/feed.ts',
      ],
      'src/core/monitors/create.ts': [
        'src/delivery/tokens.ts',
        'src/matcher/parse.ts',
        'src/db/client.ts',
      ],
      'src/delivery/start.ts': ['src/matches/events.ts', 'src/platform/mailer.ts'],
      'src/pipeline/worker.ts': [
        'src/sources/hn/connector.ts',
        'src/matches/events.ts',
        'src/matcher/parse.ts',
      ],
      'src/matches/feed.ts': ['src/db/client.ts', 'src/shared/match.ts'],
      'src/identity/port.ts': ['src/platform/mailer.ts', 'src/db/client.ts'],
      'src/platform/mailer.ts': ['src/shared/env-values.ts'],
      'src/config/env.ts': ['src/sources/registry.ts', 'src/shared/env-values.ts'],
      'src/sources/registry.ts': ['src/sources/hn/plugin.ts', 'src/sources/replay-site.ts'],
      'src/sources/hn/plugin.ts': ['src/sources/hn/connector.ts', 'src/shared/env-values.ts'],
      'src/replay/server.ts': ['src/sources/registry.ts', 'src/platform/mailer.ts'],
      'src/sources/hn/connector.ts': ['src/sources/http/client.ts', 'src/shared/sources.ts'],
      'src/db/client.ts': ['src/config/env.ts', 'src/shared/sources.ts'],
      'src/web/app/router.tsx': ['src/web/features/alerts/page.tsx', 'src/web/lib/store.ts'],
      'src/web/features/alerts/page.tsx': [
        'src/web/features/monitors/index.ts',
        'src/web/components/card.tsx',
        'src/shared/match.ts',
      ],
      'src/web/features/monitors/index.ts': ['src/web/features/monitors/api.ts'],
      'src/delivery/mailer.test.ts': ['tests/support/smtp-sink.ts'],
    }),
  ).toEqual([]);
});
