import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDriver } from '../../../runtime/store/sqlite/sqlite-driver.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function file(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ac-sqlite-driver-'));
  dirs.push(dir);
  return path.join(dir, 'db.sqlite');
}

describe('SqliteDriver', () => {
  it('reads rows as plain objects keyed by column, nulls and numbers included', async () => {
    const db = new SqliteDriver({ filename: ':memory:' });
    await db.run('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER, s TEXT, "odd name" TEXT)');
    await db.run('INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?, ?)', ['a', 1, null, 'x', 'b', 2, 'y', 'z']);
    const row = await db.get<Record<string, unknown>>('SELECT * FROM t WHERE id = ?', ['a']);
    expect(row).toStrictEqual({ id: 'a', n: 1, s: null, 'odd name': 'x' });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(await db.get('SELECT * FROM t WHERE id = ?', ['nope'])).toBeUndefined();
    expect(await db.all('SELECT id, n AS count FROM t ORDER BY id')).toStrictEqual([{ id: 'a', count: 1 }, { id: 'b', count: 2 }]);
    expect(await db.all('SELECT id FROM t WHERE id = ?', ['nope'])).toStrictEqual([]);
    // A later column of the same name wins, as with better-sqlite3's own objects.
    expect(await db.get('SELECT 1 AS v, 2 AS v')).toStrictEqual({ v: 2 });
    await db.close();
  });

  it('never lets a __proto__ column set the prototype (it gets better-sqlite3\'s own objects)', async () => {
    const db = new SqliteDriver({ filename: ':memory:' });
    const row = await db.get<Record<string, unknown>>('SELECT 1 AS "__proto__", 2 AS b');
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(row!.b).toBe(2);
    await db.close();
  });

  it('maps columns again when another connection changes the table under a cached SELECT *', async () => {
    const filename = file();
    const db = new SqliteDriver({ filename });
    await db.run('CREATE TABLE t (id TEXT PRIMARY KEY, a TEXT)');
    await db.run('INSERT INTO t VALUES (?, ?)', ['1', 'x']);
    expect(await db.get('SELECT * FROM t')).toStrictEqual({ id: '1', a: 'x' });
    const other = new Database(filename);
    other.exec("ALTER TABLE t ADD COLUMN b TEXT NOT NULL DEFAULT 'y'");
    other.close();
    expect(await db.get('SELECT * FROM t')).toStrictEqual({ id: '1', a: 'x', b: 'y' });
    expect(await db.all('SELECT * FROM t')).toStrictEqual([{ id: '1', a: 'x', b: 'y' }]);
    await db.close();
  });

  // Regression (issue 15): the old row reader detected a schema change only by column count, so after another
  // process dropped one column and added another it returned the new column's value under the old column's name.
  it('reads the new column names after another process drops one column and adds another under a cached SELECT *', async () => {
    const filename = file();
    const db = new SqliteDriver({ filename });
    await db.run('CREATE TABLE t (id TEXT PRIMARY KEY, a TEXT)');
    await db.run('INSERT INTO t VALUES (?, ?)', ['1', 'x']);
    expect(await db.get('SELECT * FROM t')).toStrictEqual({ id: '1', a: 'x' });
    expect(await db.all('SELECT * FROM t')).toStrictEqual([{ id: '1', a: 'x' }]);
    const other = new Database(filename);
    other.exec('ALTER TABLE t DROP COLUMN a');
    other.exec("ALTER TABLE t ADD COLUMN b TEXT NOT NULL DEFAULT 'y'");
    other.close();
    const row = await db.get<Record<string, unknown>>('SELECT * FROM t');
    expect(row).toStrictEqual({ id: '1', b: 'y' });
    expect(row).not.toHaveProperty('a');
    expect(await db.all('SELECT * FROM t')).toStrictEqual([{ id: '1', b: 'y' }]);
    await db.close();
  });

  it('applies the page cache and memory map sizes it is given', async () => {
    const db = new SqliteDriver({ filename: file(), cacheSizeKiB: 4096, mmapSizeBytes: 0 });
    expect(db.db.pragma('cache_size', { simple: true })).toBe(-4096);
    expect(db.db.pragma('mmap_size', { simple: true })).toBe(0);
    await db.close();
    const defaults = new SqliteDriver({ filename: file() });
    expect(defaults.db.pragma('cache_size', { simple: true })).toBe(-32768);
    expect(defaults.db.pragma('mmap_size', { simple: true })).toBe(256 * 2 ** 20);
    await defaults.close();
  });
});
