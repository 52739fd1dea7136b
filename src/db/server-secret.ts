import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from './client.ts';
import { serverSecrets } from './schema/delivery.ts';

/**
 * The server's own secret called `name`: made at random the first time any process asks, then
 * read by every process from the database (insert-or-nothing, so two first starts agree).
 */
export async function loadServerSecret(db: Database, name: string): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing({ target: serverSecrets.name });
  const [row] = await db
    .select({ value: serverSecrets.value })
    .from(serverSecrets)
    .where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`The server secret ${name} vanished after it was stored.`);
  return row.value;
}
