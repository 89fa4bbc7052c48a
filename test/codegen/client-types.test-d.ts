/**
 * Type-level tests over the committed generated/types.gen.ts and client.gen.ts: rules are unions, so breaking one
 * is a compile error (checked by `vitest --typecheck` and by `tsc`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolClient } from '../../generated/client.gen.js';
import type { ToolInputs, ToolName, WorkspaceDatabaseQueryInput, WorkspacePageCreateInput } from '../../generated/types.gen.js';

describe('generated input types', () => {
  it('exactly one of database_id / parent_page_id, properties required with database_id', () => {
    expectTypeOf<{ database_id: string; properties: Record<string, Record<string, unknown>> }>().toMatchTypeOf<WorkspacePageCreateInput>();
    expectTypeOf<{ parent_page_id: string }>().toMatchTypeOf<WorkspacePageCreateInput>();
    // both ids
    expectTypeOf<{ database_id: string; parent_page_id: string; properties: Record<string, Record<string, unknown>> }>().not.toMatchTypeOf<WorkspacePageCreateInput>();
    // neither id
    expectTypeOf<{ properties: Record<string, Record<string, unknown>> }>().not.toMatchTypeOf<WorkspacePageCreateInput>();
    // database_id without properties (required_if)
    expectTypeOf<{ database_id: string }>().not.toMatchTypeOf<WorkspacePageCreateInput>();
  });

  it('host-computed _parent is not part of the input type', () => {
    // @ts-expect-error _parent is computed by the service
    const input: WorkspacePageCreateInput = { parent_page_id: 'x', _parent: { page_id: 'x' } };
    void input;
  });

  it('a sort item has exactly one of property or timestamp', () => {
    type Sort = NonNullable<WorkspaceDatabaseQueryInput['sorts']>[number];
    expectTypeOf<{ property: string; direction: 'ascending' }>().toMatchTypeOf<Sort>();
    expectTypeOf<{ timestamp: 'created_time'; direction: 'descending' }>().toMatchTypeOf<Sort>();
    expectTypeOf<{ property: string; timestamp: 'created_time'; direction: 'ascending' }>().not.toMatchTypeOf<Sort>();
  });

  it('the client has one method per tool, typed by that tool input', () => {
    expectTypeOf<keyof ToolClient>().toEqualTypeOf<ToolName>();
    expectTypeOf<Parameters<ToolClient['workspace_page_create']>[0]>().toEqualTypeOf<ToolInputs['workspace_page_create']>();
    expectTypeOf<Parameters<ToolClient['calendar_create_event']>[1]>().toEqualTypeOf<{ identifier: string; connection_name?: string }>();
  });
});
