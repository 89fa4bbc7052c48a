/**
 * The query of a dashboard list page (the execution history, the delivery log, the connected accounts), checked by the
 * API's own rule: the page's route declares the schema of the list's API query (`generated/openapi.json`, as
 * `schemas.ts` reads it) for the filters it takes, and fastify checks it with the API's validator, so `?outcome=bad`,
 * a filter given twice or a misspelt parameter is refused in the API's words (`outcome must be one of: success,
 * error`, `unknown parameter 'outcom'`). The route attaches the refusal instead of answering it: the page shows it as
 * its error, with the filter form as typed, and lists nothing, rather than a list that is not the one asked for.
 */
import type { FastifyRequest, preValidationHookHandler, RouteShorthandOptions } from 'fastify';
import type { JsonSchema } from '../../types.js';

/**
 * The route options of a list page: the API list's query schema, narrowed to the parameters the page reads from it
 * (`apiNames`), with the page's own parameters (`own`: the paging trail, a flash) as plain text. A list paged by number
 * (`numbered`: the accounts) takes `page`, a whole number from 1, refused as a filter is (`page must be an integer`,
 * `page must be >= 1`) rather than read as the first page.
 */
export function listPageOptions(apiQuery: JsonSchema, apiNames: readonly string[], own: readonly string[], numbered = false): RouteShorthandOptions {
  const properties = (apiQuery as { properties: Record<string, JsonSchema> }).properties;
  const querystring = {
    type: 'object',
    properties: {
      ...Object.fromEntries(apiNames.map((name) => {
        const schema = properties[name];
        if (!schema) throw new Error(`the API list query has no parameter ${name}`);
        return [name, schema];
      })),
      ...Object.fromEntries(own.map((name) => [name, { type: 'string' }])),
      ...(numbered ? { page: { type: 'integer', minimum: 1 } } : {}),
    },
    additionalProperties: false,
  };
  return { schema: { querystring }, attachValidation: true, preValidation: readQuery };
}

/**
 * A filter form sends its empty fields (`?identifier=&outcome=`): an empty or blank value is no filter, not a bad one.
 * A query is text and the validator does not coerce: a `page` of digits becomes the number (a negative one too, to be
 * refused as below 1 rather than as text), so that anything else (`abc`, `1.5`) is refused as not an integer.
 */
const readQuery: preValidationHookHandler = (request, _reply, done) => {
  const query = request.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) if (typeof value === 'string' && value.trim() === '') delete query[name];
  if (typeof query.page === 'string' && /^-?[0-9]+$/.test(query.page)) query.page = Number(query.page);
  done();
};

/** The refusal the route attached (fastify's validation error, for the dashboard's `formError`), if any. */
export function queryRefusal(request: FastifyRequest): Error | undefined {
  return request.validationError;
}

/**
 * A filter's select options: the values there are, and the one asked for kept chosen, as typed, even when the list
 * refused it (`?outcome=bad` shows `bad` selected beside success and error), so only that filter needs correcting.
 */
export function filterOptions(values: readonly string[], chosen: string | undefined): { value: string; selected: boolean }[] {
  const all = chosen === undefined || values.includes(chosen) ? values : [...values, chosen];
  return all.map((value) => ({ value, selected: value === chosen }));
}
