import { describe, expect, it } from 'vitest';
import { keyedObjects, member, mergeObjects, withDefault } from '../../../runtime/helpers/objects.js';

describe('object helpers', () => {
  it('member reads one member, absent with the object', () => {
    expect(member({ rich_text: [1] }, 'rich_text')).toEqual([1]);
    expect(member(undefined as { rich_text: number[] } | undefined, 'rich_text')).toBeUndefined();
  });

  it('mergeObjects lays present members over the base', () => {
    expect(mergeObjects({ a: 1, b: 2 }, { b: 3, c: undefined })).toEqual({ a: 1, b: 3 });
    expect(mergeObjects(undefined, { c: true })).toEqual({ c: true });
    expect(mergeObjects(undefined, undefined)).toBeUndefined();
  });

  it('withDefault falls back only when absent', () => {
    expect(withDefault(undefined, 'USER_ENTERED')).toBe('USER_ENTERED');
    expect(withDefault('RAW', 'USER_ENTERED')).toBe('RAW');
  });

  it('keyedObjects sends each value as a one-member object', () => {
    expect(keyedObjects(['primary', 'ana@example.com'], 'id')).toEqual([{ id: 'primary' }, { id: 'ana@example.com' }]);
    expect(keyedObjects([], 'id')).toEqual([]);
  });
});
