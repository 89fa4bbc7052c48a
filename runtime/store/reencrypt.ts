/**
 * Key rotation: rewrites every secret that is not sealed with the keyring's current key.
 */
import { secretAad, type SecretBox } from '../crypto/secret-box.js';
import { SECRET_COLUMNS } from './records.js';
import type { SqlDriver } from './sql-driver.js';

const BATCH = 500;

/**
 * Walks each secret column in key order, in batches, selecting only values whose prefix is not `v1.<current kid>.`.
 * Rows stay readable throughout (old keys still decrypt), and each rewrite is conditional on the old ciphertext, so
 * a token written concurrently by a refresh (already under the current key) is never overwritten.
 *
 * @returns how many values were rewritten.
 */
export async function reencryptSecrets(db: SqlDriver, box: SecretBox): Promise<number> {
  const prefix = box.currentPrefix;
  let rewritten = 0;
  for (const { table, key, columns } of SECRET_COLUMNS) {
    const stale = columns.map((c) => `(${c} IS NOT NULL AND substr(${c}, 1, ${prefix.length}) <> ?)`).join(' OR ');
    let after = '';
    for (;;) {
      const rows = await db.all<Record<string, string | null>>(
        `SELECT ${key}, ${columns.join(', ')} FROM ${table} WHERE ${key} > ? AND (${stale}) ORDER BY ${key} LIMIT ${BATCH}`,
        [after, ...columns.map(() => prefix)],
      );
      for (const row of rows) {
        const rowKey = row[key] as string;
        for (const column of columns) {
          const sealed = row[column];
          if (sealed == null || !box.isStale(sealed)) continue;
          const aad = secretAad(table, rowKey, column);
          const resealed = box.seal(box.open(sealed, aad), aad);
          rewritten += await db.run(`UPDATE ${table} SET ${column} = ? WHERE ${key} = ? AND ${column} = ?`, [resealed, rowKey, sealed]);
        }
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]![key] as string;
    }
  }
  return rewritten;
}
