/**
 * What the store's per-table modules share: the driver, the secret box that seals values just before they are
 * written, and which database it is. Built once by `SqlStore`; nothing outside runtime/store sees it.
 */
import { ConnectorError } from '../errors.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { isForeignKeyViolation, isUniqueViolation, type SqlDriver } from './sql-driver.js';

export interface SqlContext {
  readonly db: SqlDriver;
  readonly box: SecretBox;
  readonly kind: 'sqlite' | 'postgres';
}

/**
 * A failed insert or update as the catalogue says it: a unique violation is `conflict` (with `violations` when the
 * caller names the field it came from), a missing environment `not_found`. Anything else is left as it is.
 */
export function mapWriteError(err: unknown, what: string, environmentId: string, uniqueField?: { pointer: string; message: string }): unknown {
  if (isUniqueViolation(err)) {
    return new ConnectorError('conflict', `${what} already exists in this environment`, {
      ...(uniqueField ? { details: { violations: [{ ...uniqueField, keyword: 'unique' }] } } : {}),
    });
  }
  if (isForeignKeyViolation(err)) return new ConnectorError('not_found', `environment "${environmentId}" does not exist`);
  return err;
}
