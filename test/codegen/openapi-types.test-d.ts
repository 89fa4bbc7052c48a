/**
 * Type-level tests over the committed generated/openapi-types.gen.ts (openapi-typescript's types for openapi.json):
 * an API consumer's client names each shared schema, and the tools' outputs use the names.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/openapi-types.gen.js';

type S = components['schemas'];

describe('openapi-typescript types of the shared schemas', () => {
  it('an output that is a shared schema, or holds one, has its named type', () => {
    expectTypeOf<S['CalendarGetEventByIdOutput']>().toEqualTypeOf<S['CalendarEvent']>();
    expectTypeOf<NonNullable<S['CalendarListEventsOutput']['items']>[number]>().toEqualTypeOf<S['CalendarEvent']>();
    expectTypeOf<S['CrmContactCreateOutput']>().toEqualTypeOf<S['CrmCreatedObject']>();
    expectTypeOf<NonNullable<S['CrmContactsSearchOutput']['results']>[number]>().toEqualTypeOf<S['CrmObject']>();
    // A row whose `properties` differ from Page's in their description only: the ref, with it beside.
    type Row = NonNullable<S['WorkspaceDatabaseQueryPropertiesOutput']['results']>[number];
    expectTypeOf<Row>().toEqualTypeOf<S['WorkspacePage'] | S['WorkspaceDatabaseOrDataSource']>();
  });

  it('the shared schema types hold what the tools answer', () => {
    expectTypeOf<S['CalendarEvent']['id']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<S['WorkspacePage']['properties']>[string]>().toEqualTypeOf<S['WorkspacePropertyValue']>();
  });
});
