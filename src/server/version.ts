import { readFileSync } from 'node:fs';
import path from 'node:path';

export function readVersion(projectRoot: string): string {
  const manifest: unknown = JSON.parse(
    readFileSync(path.join(projectRoot, 'package.json'), 'utf8'),
  );
  if (manifest && typeof manifest === 'object' && 'version' in manifest)
    return String(manifest.version);
  return '0.0.0';
}
