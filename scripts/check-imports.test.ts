import { describe, expect, test } from 'vitest';
import { findViolations, readImports } from './check-imports.ts';

const check = (file: string, source: string) =>
  findViolations([{ file, source }]).map((violation) => `${violation.line} ${violation.rule}`);

describe('the import rule check', () => {
  test.each([
    ['src/matcher/x.ts', "import { users } from '../db/schema/users.ts';", 'src/matcher imports'],
    ['src/core/x.ts', "import { Page } from '../web/app/page.tsx';", 'src/core never'],
    ['src/web/x.tsx', "import { QUERY_HELP } from '../matcher/query-help.ts';", 'src/web imports'],
    ['src/sources/hn/x.ts', "import type { Database } from '../../db/client.ts';", 'src/sources'],
    ['src/shared/x.ts', "import type { Clock } from '../platform/clock.ts';", 'src/shared'],
    ['src/platform/x.ts', "import type { Config } from '../config/env.ts';", 'src/platform'],
    [
      'src/pipeline/x.ts',
      "import { createApp } from '../server/create-app.ts';",
      'nothing imports',
    ],
    ['scripts/x.ts', "export { createApp } from '../src/server/create-app.ts';", 'nothing imports'],
  ])('%s: %s is refused', (file, source, rule) => {
    expect(check(file, source)).toEqual([expect.stringMatching(new RegExp(`^1 ${rule}`))]);
  });

  test('the entry points may import the server, and a layer its own files', () => {
    const app = "import { createApp } from './server/create-app.ts';";
    expect(check('src/main.ts', app)).toEqual([]);
    expect(check('src/worker-main.ts', app)).toEqual([]);
    expect(check('src/server/routes/x.ts', "import { a } from '../http/api-router.ts';")).toEqual(
      [],
    );
    expect(check('src/web/x.ts', "import { b } from '../shared/user.ts';")).toEqual([]);
  });

  test('finds every form of import, on its line, and skips comments and packages', () => {
    const source = [
      "import { z } from 'zod';",
      "import type { A } from '../db/a.ts';",
      "import '../db/side-effect.ts';",
      "const lazy = await import('../db/lazy.ts');",
      "export { b } from '../db/b.ts';",
      "// import { c } from '../db/c.ts';",
      "/* import { d } from '../db/d.ts'; */",
      'const sample = "import { f } from \'../db/f.ts\'";',
      "import url from '../db/e.svg?url';",
    ].join('\n');
    expect(readImports('src/sources/x.ts', source)).toEqual([
      { line: 2, specifier: '../db/a.ts', target: 'src/db/a.ts' },
      { line: 3, specifier: '../db/side-effect.ts', target: 'src/db/side-effect.ts' },
      { line: 4, specifier: '../db/lazy.ts', target: 'src/db/lazy.ts' },
      { line: 5, specifier: '../db/b.ts', target: 'src/db/b.ts' },
      { line: 9, specifier: '../db/e.svg?url', target: 'src/db/e.svg' },
    ]);
  });
});
