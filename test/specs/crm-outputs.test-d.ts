/**
 * Type-level tests: the output type generated for every CRM tool names only fields the official SDK types have for
 * that response, at the top and in the nested objects, array items and maps it describes, with types the SDK admits
 * (upstream-keys.ts); a misspelt or invented field fails the typecheck with its tool and path (checked by
 * `vitest --typecheck` and by `tsc`). Each tool also names the deep paths it must describe, so an output that goes
 * shallow again fails too.
 *
 * SDK: @hubspot/api-client, the type its client method for the same call answers with.
 */
import type { Client as HubSpot } from '@hubspot/api-client';
import { describe, expectTypeOf, it } from 'vitest';
import type { CrmCreatedObject, CrmObject, CrmPaging, ToolName, ToolOutputs } from '../../generated/types.gen.js';
import type { ClientResult as Result, DescribedPaths, InventedByTool, InventedFields } from './upstream-keys.js';

type Crm = HubSpot['crm'];

/** Each tool's upstream call, as the official client types its answer. */
interface Upstream {
  crm_companies_search: Result<Crm['companies']['searchApi']['doSearch']>;
  crm_company_create: Result<Crm['companies']['basicApi']['create']>;
  crm_company_get: Result<Crm['companies']['basicApi']['getById']>;
  crm_contact_create: Result<Crm['contacts']['basicApi']['create']>;
  crm_contact_get: Result<Crm['contacts']['basicApi']['getById']>;
  crm_contact_update: Result<Crm['contacts']['basicApi']['update']>;
  crm_contacts_list: Result<Crm['contacts']['basicApi']['getPage']>;
  crm_contacts_search: Result<Crm['contacts']['searchApi']['doSearch']>;
  crm_deal_create: Result<Crm['deals']['basicApi']['create']>;
  crm_deal_update: Result<Crm['deals']['basicApi']['update']>;
  crm_deals_search: Result<Crm['deals']['searchApi']['doSearch']>;
  crm_deal_pipelines_list: DealPipelines;
}

/**
 * The SDK's answer to pipelinesApi.getAll, its stage metadata named: the SDK types it as a string map, which a deal
 * stage fills with probability and isClosed (HubSpot's pipelines guide), so the output may name those two keys.
 */
type SdkPipeline = Result<Crm['pipelines']['pipelinesApi']['getAll']>['results'][number];
type SdkStage = SdkPipeline['stages'][number];
type DealPipelines = {
  results: Array<Omit<SdkPipeline, 'stages'> & { stages: Array<Omit<SdkStage, 'metadata'> & { metadata?: { probability: string; isClosed: string } & NonNullable<SdkStage['metadata']> }> }>;
};

type Paths<N extends ToolName> = DescribedPaths<ToolOutputs[N]>;

describe('CRM tool outputs name only fields of the SDK response types', () => {
  // A new tool needs no entry here to pass (a tool is its YAML file); naming its SDK response type adds this check.
  it('names tools that exist', () => {
    expectTypeOf<keyof Upstream>().toExtend<ToolName>();
  });

  it('every field exists in the SDK type, at every depth, with a type it admits', () => {
    // On a misspelt field the error names it: `{ crm_deal_update: "Expected: never, Actual: ... updatedAT" }`.
    expectTypeOf<InventedByTool<ToolOutputs, Upstream>>().toEqualTypeOf<{}>();
  });
});

describe('the outputs are deep: they describe the notable fields, nested', () => {
  it('CRM: an object, and pages of them', () => {
    type One = 'id' | 'properties.*' | 'createdAt' | 'updatedAt' | 'archived';
    type Page = 'results.id' | 'results.properties.*' | 'results.updatedAt' | 'paging.next.after' | 'paging.next.link';
    expectTypeOf<One>().toExtend<Paths<'crm_company_create'>>();
    expectTypeOf<One>().toExtend<Paths<'crm_company_get'>>();
    expectTypeOf<One>().toExtend<Paths<'crm_contact_create'>>();
    expectTypeOf<One>().toExtend<Paths<'crm_contact_get'>>();
    expectTypeOf<One>().toExtend<Paths<'crm_contact_update'>>();
    expectTypeOf<One>().toExtend<Paths<'crm_deal_create'>>();
    expectTypeOf<One>().toExtend<Paths<'crm_deal_update'>>();
    expectTypeOf<Page | 'total'>().toExtend<Paths<'crm_companies_search'>>();
    expectTypeOf<Page | 'total'>().toExtend<Paths<'crm_contacts_search'>>();
    expectTypeOf<Page | 'total'>().toExtend<Paths<'crm_deals_search'>>();
    expectTypeOf<Page>().toExtend<Paths<'crm_contacts_list'>>();
    type Pipelines = 'results.id' | 'results.label' | 'results.displayOrder' | 'results.archived' | 'results.stages.id' | 'results.stages.label' | 'results.stages.displayOrder' | 'results.stages.metadata.probability' | 'results.stages.metadata.isClosed';
    expectTypeOf<Pipelines>().toExtend<Paths<'crm_deal_pipelines_list'>>();
    // Every property value is a string or null, as HubSpot sends them.
    expectTypeOf<NonNullable<ToolOutputs['crm_contact_get']['properties']>>().toEqualTypeOf<Record<string, string | null>>();
  });
});

describe('a shared schema is a named type, which the outputs that answer it use', () => {
  it('the object and the paging', () => {
    expectTypeOf<ToolOutputs['crm_deal_create']>().toEqualTypeOf<CrmCreatedObject>();
    expectTypeOf<ToolOutputs['crm_company_get']>().toEqualTypeOf<CrmObject>();
    expectTypeOf<NonNullable<ToolOutputs['crm_contacts_search']['results']>[number]>().toEqualTypeOf<CrmObject>();
    expectTypeOf<NonNullable<ToolOutputs['crm_contacts_list']['paging']>>().toEqualTypeOf<CrmPaging>();
  });
});

describe('InventedFields over revived SDK types', () => {
  type Open<T> = T & { [key: string]: unknown };
  it('a field the SDK type has not, nested', () => {
    expectTypeOf<InventedFields<Open<{ paging?: Open<{ next?: Open<{ before?: string }> }> }>, Upstream['crm_contacts_list']>>().toEqualTypeOf<'paging.next.before'>();
  });

  it('values as on the wire: a revived Date is a string', () => {
    expectTypeOf<InventedFields<Open<{ createdAt?: string; updatedAt?: string }>, Upstream['crm_contact_get']>>().toEqualTypeOf<never>();
    expectTypeOf<InventedFields<Open<{ createdAt?: number }>, Upstream['crm_contact_get']>>().toEqualTypeOf<'createdAt (type)'>();
    expectTypeOf<InventedFields<Open<{ properties?: Record<string, number> }>, Upstream['crm_contact_get']>>().toEqualTypeOf<'properties.* (type)'>();
  });
});
