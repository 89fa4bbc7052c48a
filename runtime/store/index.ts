/** The token store: one implementation over SQLite (default) or PostgreSQL. */
export { openStore, SQLITE_FILE_NAME, type OpenStoreOptions } from './open-store.js';
export { newId } from './ids.js';
export type * from './types.js';
