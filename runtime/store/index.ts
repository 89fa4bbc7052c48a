/** The token store: one implementation over SQLite (default) or PostgreSQL. */
export { openStore, requireExistingStore, SQLITE_FILE_NAME, StoreMissingError, type OpenStoreOptions } from './open-store.js';
export { newId } from './ids.js';
export type * from './types.js';
