import { describe, expect, it } from 'vitest';
import { hostParent, pageParent } from '../../../runtime/helpers/workspace-parent.js';

const HEX = '598337872cf94fdf8782e53db20768a5';
const UUID = '59833787-2cf9-4fdf-8782-e53db20768a5';

describe('pageParent', () => {
  it('normalizes the page id and is absent without a parent', () => {
    expect(pageParent({ page_id: HEX })).toEqual({ page_id: UUID });
    expect(pageParent({ page_id: `https://www.notion.so/Roadmap-${HEX}` })).toEqual({ page_id: UUID });
    expect(pageParent(undefined)).toBeUndefined();
  });
});

describe('hostParent', () => {
  it('is {database_id} for a row and {page_id} for a child page', () => {
    expect(hostParent(HEX, undefined)).toEqual({ database_id: UUID });
    expect(hostParent(undefined, UUID.toUpperCase())).toEqual({ page_id: UUID });
    expect(hostParent(null, HEX)).toEqual({ page_id: UUID });
    expect(hostParent(undefined, undefined)).toBeUndefined();
  });
});
