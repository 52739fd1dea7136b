import type { IConfiguration, IForbiddenRuleType } from 'dependency-cruiser';

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
  platform: ['shared'],
  matcher: ['shared'],
  // The relevance model: pure, on the matcher's words (decision 0033).
  relevance: ['matcher', 'shared'],
  // An item's intents, sentiment and language: rules and the models its packages ship.
  signals: ['shared'],
  // Each site is a folder of sources with its settings, connector and replay (decision 0024).
  sources: ['platform', 'shared'],
  // The configuration's schema is built from the sites' settings.
  config: ['sources', 'platform', 'shared'],
  db: ['config', 'platform', 'shared'],
  replay: ['sources', 'platform', 'shared'],
  identity: ['db', 'config', 'platform', 'shared'],
  // The stored match's room: storing matches, the feed, match events, the live fan-out.
  matches: ['relevance', 'matcher', 'db', 'config', 'platform', 'shared'],
  delivery: ['matches', 'db', 'config', 'platform', 'shared'],
  pipeline: ['matches', 'sources', 'matcher', 'signals', 'db', 'config', 'platform', 'shared'],
  core: [
    'matches',
    'relevance',
    'delivery',
    'identity',
    'sources',
    'matcher',
    'signals',
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
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API for dependency-cruiser; swc parses TypeScript instead.
    parser: 'swc',
    // Tests and benchmarks may import anything as harnesses; their own imports are not followed.
    doNotFollow: { path: ['node_modules', '^tests/', '^bench/'] },
    exclude: { path: ['node_modules', '^src/db/migrations/', '^dist/'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

export default config;
