import path from 'node:path';
import type {
  DependencyType,
  IConfiguration,
  IForbiddenRuleType,
  IViolation,
} from 'dependency-cruiser';

/**
 * The import rules of docs/ARCHITECTURE.md ("Layers and the directions they point"), checked by
 * dependency-cruiser over src/ and scripts/ (decision 0021; tests and benchmarks are harnesses
 * and may import anything). `npm run check:imports` (part of `npm run verify` and CI) prints
 * each broken rule with the importing file, the imported one and what the rule says, and exits
 * 1. Type-only imports count: a type is a dependency too. `scripts/import-rules.test.ts` plants
 * a violation of each rule and expects it refused.
 *
 * A new folder of src/ is a line in LAYERS naming the folders it may import; until it has one,
 * any import from it fails the check.
 */

/**
 * What each folder of src/ may import of ours besides itself, from the bottom up. Nothing may
 * import a folder that is not listed below it, so the folders form a graph without cycles.
 * `src/main.ts` and `src/*-main.ts` are the entry points and may import any of them.
 */
const LAYERS: Record<string, string[]> = {
  shared: [],
  config: ['shared'],
  platform: ['config', 'shared'],
  db: ['config', 'platform', 'shared'],
  matcher: ['shared'],
  sources: ['platform', 'shared'],
  replay: ['platform', 'shared'],
  identity: ['db', 'config', 'platform', 'shared'],
  // The stored match's room: storing matches, the feed, match events, the live fan-out.
  matches: ['matcher', 'db', 'config', 'platform', 'shared'],
  delivery: ['matches', 'db', 'config', 'platform', 'shared'],
  pipeline: ['matches', 'sources', 'matcher', 'db', 'config', 'platform', 'shared'],
  core: [
    'matches',
    'delivery',
    'identity',
    'sources',
    'matcher',
    'db',
    'config',
    'platform',
    'shared',
  ],
  server: ['core', 'matches', 'identity', 'db', 'config', 'platform', 'shared'],
  // The browser app: only the contracts it shares with the server.
  web: ['shared'],
};

const layerRules = Object.entries(LAYERS).map(
  ([layer, below]): IForbiddenRuleType => ({
    name: `${layer}-imports-only-below`,
    comment: `src/${layer} imports, of ours, only ${below.length > 0 ? below.map((f) => `src/${f}`).join(', ') : 'itself'}`,
    severity: 'error',
    from: { path: `^src/${layer}/` },
    to: { path: '^src/', pathNot: `^src/(${[layer, ...below].join('|')})/` },
  }),
);

/**
 * An import that breaks `rule` today and that work under way removes: one file pair, ignored
 * until then. dependency-cruiser reports an entry that no longer occurs as stale ("known
 * violations in the baseline"), so the list only shrinks.
 */
function exception(rule: string, from: string, to: string, { typeOnly = false } = {}): IViolation {
  const relative = path.posix.relative(path.posix.dirname(from), to);
  return {
    type: 'dependency',
    rule: { severity: 'error', name: rule },
    from,
    to,
    unresolvedTo: relative.startsWith('.') ? relative : `./${relative}`,
    dependencyTypes: ['local', 'import', ...(typeOnly ? (['type-only'] as DependencyType[]) : [])],
    comment: 'temporary',
  };
}

/**
 * Temporary: sites as plugins (each site's folder has its settings, connector and replay) made
 * three folders import each other: the configuration schema is built from the plugins
 * (config → sources) while the plugins parse their settings with config's helpers
 * (sources → config), and the replay serves the plugins' sites (replay → sources) while a
 * plugin's replay uses the replay's types (sources → replay). Which way each should point is a
 * decision still to take (the helpers and the replay's types could move down into sources);
 * until then each file pair is listed, and the folders are left out of `no-folder-cycle`.
 */
const SOURCES_AS_DATA_EXCEPTIONS = [
  ...['hacker-news', 'reddit', 'lobsters', 'devto'].map((site) =>
    exception(
      'sources-imports-only-below',
      `src/sources/${site}/plugin.ts`,
      'src/config/env-values.ts',
    ),
  ),
  exception('sources-imports-only-below', 'src/sources/registry.ts', 'src/replay/replay-site.ts', {
    typeOnly: true,
  }),
  exception('sources-imports-only-below', 'src/sources/plugin.ts', 'src/replay/replay-site.ts', {
    typeOnly: true,
  }),
  exception(
    'sources-imports-only-below',
    'src/sources/devto/replay.ts',
    'src/replay/replay-site.ts',
    { typeOnly: true },
  ),
  exception('sources-imports-only-below', 'src/sources/devto/replay.ts', 'src/replay/corpus.ts', {
    typeOnly: true,
  }),
  exception('replay-imports-only-below', 'src/replay/replay-server.ts', 'src/sources/registry.ts'),
  exception('replay-imports-only-below', 'src/replay/corpus.ts', 'src/sources/registry.ts'),
  exception('config-imports-only-below', 'src/config/env.ts', 'src/sources/registry.ts'),
];

const config: IConfiguration = {
  forbidden: [
    ...layerRules,
    {
      name: 'every-folder-has-a-layer',
      comment: 'a folder of src/ imports nothing of ours until LAYERS says what it may import',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${Object.keys(LAYERS).join('|')})/` },
      to: { path: '^src/' },
    },
    {
      name: 'entry-points-only-import-server',
      comment:
        'nothing imports src/server but src/main.ts and src/*-main.ts (tests and benchmarks may, as harnesses)',
      severity: 'error',
      from: {
        path: '^(src|scripts)/',
        pathNot: ['^src/main\\.ts$', '^src/[a-z0-9-]+-main\\.ts$', '^src/server/'],
      },
      to: { path: '^src/server/' },
    },
    {
      name: 'src-imports-no-harness',
      comment:
        'code in src/ never imports tests/, bench/ or scripts/ (its unit tests may use tests/support/)',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^(tests|bench|scripts)/' },
    },
    {
      name: 'web-features-import-each-other-through-index',
      comment:
        'a web feature uses another only through what that feature exports on purpose: its index.ts',
      severity: 'error',
      from: { path: '^src/web/features/([^/]+)/' },
      to: {
        path: '^src/web/features/',
        pathNot: ['^src/web/features/$1/', '^src/web/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'web-app-composes-features',
      comment: 'src/web/app composes the features; features, components and lib never import it',
      severity: 'error',
      from: { path: '^src/web/(features|components|lib)/' },
      to: { path: '^src/web/app/' },
    },
    {
      name: 'web-shared-parts-import-no-feature',
      comment: 'src/web/components and src/web/lib serve every feature and import none',
      severity: 'error',
      from: { path: '^src/web/(components|lib)/' },
      to: { path: '^src/web/features/' },
    },
    {
      name: 'no-folder-cycle',
      comment: 'no folder reaches itself through its imports (folders of src/ at every depth)',
      severity: 'error',
      scope: 'folder',
      from: {
        path: '^src/',
        // Temporary, with SOURCES_AS_DATA_EXCEPTIONS: the cycles those imports make between
        // config, sources and replay. The layer rules still forbid any other import between
        // them. Goes with that list.
        pathNot: ['^src/(config|replay|sources)$', '^src/sources/[^/]+$'],
      },
      to: { circular: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API for dependency-cruiser; swc parses TypeScript instead.
    parser: 'swc',
    // Tests and benchmarks may import anything as harnesses; their own imports are not followed.
    doNotFollow: { path: ['node_modules', '^tests/', '^bench/'] },
    exclude: { path: ['node_modules', '^src/db/migrations/', '^dist/'] },
    knownViolations: SOURCES_AS_DATA_EXCEPTIONS,
    reporterOptions: { text: { highlightFocused: true } },
  },
};

export default config;
