/**
 * The `workspaceFilter` check (a Notion query filter's structure, before any schema is read) and the pieces the
 * `workspaceColumns` pre-check takes from it: the property filters found anywhere in the filter, and a condition
 * written under another column type.
 */
import { describe, expect, it } from 'vitest';
import { checkWorkspaceFilter, conditionFor, filterConditions } from '../../../runtime/helpers/workspace-filter.js';

const check = (filter: unknown) => checkWorkspaceFilter(filter, '/filter');

describe('workspaceFilter', () => {
  it('takes every type Notion filters on, timestamps, relative dates and two levels of compounds', () => {
    expect(
      check({
        or: [
          { and: [{ property: 'Due', date: { this_week: {} } }, { property: 'Done', checkbox: { equals: false } }] },
          { property: 'Name', title: { contains: 'plan' } },
          { property: 'Priority', number: { greater_than_or_equal_to: 2 } },
          { property: 'Stage', status: { does_not_equal: 'Done' } },
          { property: 'Tags', multi_select: { contains: 'Urgent' } },
          { property: 'Owner', people: { contains: 'a1b2c3d4-0000-4000-8000-000000000001' } },
          { property: 'Task', relation: { is_empty: true } },
          { property: 'Docs', files: { is_not_empty: true } },
          { property: 'Score', formula: { number: { greater_than: 1 } } },
          { timestamp: 'last_edited_time', last_edited_time: { on_or_after: '2026-03-01T09:00:00Z' } },
        ],
      }),
    ).toEqual([]);
  });

  it('refuses each mistake at its pointer, saying what to send', () => {
    const [v] = check({ property: 'Stage', select: { contains: 'Done' } });
    expect(v).toMatchObject({ pointer: '/filter/select/contains', keyword: 'filter' });
    expect(v!.message).toContain('a select or status is matched with equals');
    expect(check({ and: [{ property: 'Due', date: { next_week: true } }] })[0]).toMatchObject({
      pointer: '/filter/and/0/date/next_week',
      message: 'filter.and[0].date.next_week: must be the empty object {}, not true: send {"next_week": {}}',
    });
    expect(check({ property: 'Due', date: { after: 'next Friday' } })[0]!.pointer).toBe('/filter/date/after');
    expect(check({ property: 'Done', checkbox: { is_empty: true } })[0]!.pointer).toBe('/filter/checkbox/is_empty');
    expect(check({ timestamp: 'due_time', due_time: { past_week: {} } })[0]!.pointer).toBe('/filter/timestamp');
    expect(check({ and: [], property: 'Done' })[0]!.pointer).toBe('/filter/property');
    expect(check({ property: 'Done', text: { equals: 'x' } })[0]!.message).toContain('rich_text');
  });
});

describe('filterConditions and conditionFor (the pre-check)', () => {
  it('finds every property filter with its pointer; timestamps name no column', () => {
    const found = filterConditions({ or: [{ property: 'A', select: { equals: 'x' } }, { and: [{ timestamp: 'created_time', created_time: { past_week: {} } }, { property: 'B', date: { this_week: {} } }] }] });
    expect(found.map((f) => [f.at, f.property, f.key])).toEqual([
      ['/filter/or/0', 'A', 'select'],
      ['/filter/or/1/and/1', 'B', 'date'],
    ]);
  });

  it('keeps a condition the right type takes, else gives that type an example', () => {
    expect(conditionFor('status', { equals: 'Done' })).toEqual({ equals: 'Done' });
    expect(conditionFor('select', { contains: 'Urgent' })).toEqual({ equals: 'Done' });
    expect(conditionFor('formula', { anything: 1 })).toEqual({ anything: 1 });
  });
});
