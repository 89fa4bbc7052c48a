import { describe, expect, it } from 'vitest';
import { propertyIds } from '../../../runtime/helpers/workspace-property-ids.js';
import { hostDataSourceParent } from '../../../runtime/helpers/workspace-parent.js';
import { encodeQuery } from '../../../runtime/http/url.js';

describe('propertyIds', () => {
  it.each([
    ['title', ['title']],
    ['title, %5BJCR ,,AJP%7D', ['title', '[JCR', 'AJP}']],
    ['M%3BBw', ['M;Bw']],
    // Not valid percent-encoding: kept as given rather than failing the build.
    ['50%off', ['50%off']],
  ])('%s -> %j', (list, want) => {
    expect(propertyIds(list)).toEqual(want);
  });

  it('the query string then carries each id encoded exactly once, as Notion lists it', () => {
    expect(encodeQuery({ filter_properties: propertyIds('%5BJCR,AJP%7D') })).toBe('filter_properties=%5BJCR&filter_properties=AJP%7D');
  });
});

describe('hostDataSourceParent', () => {
  it('a row goes to its data source, a child page to its page, ids normalized', () => {
    expect(hostDataSourceParent('1f2e3d4c5b6a49788695a4b3c2d1e0f9', undefined)).toEqual({ data_source_id: '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9' });
    expect(hostDataSourceParent(undefined, '598337872cf94fdf8782e53db20768a5')).toEqual({ page_id: '59833787-2cf9-4fdf-8782-e53db20768a5' });
    expect(hostDataSourceParent(undefined, undefined)).toBeUndefined();
  });
});
