/**
 * The dashboard's tool explorer: pick a tool, a connection of its system (or any: the identifier's one connection of
 * the tool's system, as the API does without `connection_name`) and an identifier, fill a form built from
 * the tool's input schema (`schema-form.ts`), run it through the environment scope exactly as the API would, and
 * see the result, or the error with every violation and its JSON pointer, each also at the field it names. The call is a real call: it appears in
 * the execution history like any other, and a form runs once (`once-forms.ts`): reloading the result does not run it again.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Connector, EnvironmentScope } from '../../api.js';
import { toConnectorError } from '../errors.js';
import type { OnceOutcome } from './once-forms.js';
import { formFields, inputFromForm } from './schema-form.js';

type Handler<C> = (request: FastifyRequest, reply: FastifyReply, ctx: C) => Promise<FastifyReply>;
type Form = Record<string, string | undefined>;

export interface ToolExplorerDeps<C extends { env: EnvironmentScope }> {
  connector: Pick<Connector, 'tools'>;
  signedIn(handler: Handler<C>): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  page(reply: FastifyReply, ctx: C, name: string, context: Record<string, unknown> & { title: string }, status?: number): FastifyReply;
  /** Does `act` once per one-time form (`once-forms.ts`); a send of the same form again answers the earlier send. */
  once<R>(ctx: C, body: unknown, action: string, subject: string, act: () => Promise<R>, record: (made: R) => Record<string, unknown>): Promise<OnceOutcome<R>>;
}

type Violation = { pointer?: string; message: string };

/**
 * Which field of the explorer's form each violation is about: an input error's pointer (`invalid_input`, or a field
 * the form could not read) names the tool's parameter by its first segment (`/filterGroups/0/filters` is the field
 * `filterGroups`); any other error's `/identifier` or `/connection_name` is the call's own field. The messages are the
 * service's; one the form has no field for stays in the error card alone.
 */
function fieldErrors(code: string, violations: readonly Violation[]): { input: Map<string, string>; identifier?: string; connection?: string } {
  const input = new Map<string, string>();
  const call: Record<string, string> = {};
  for (const v of violations) {
    const first = (v.pointer ?? '').split('/')[1];
    if (first === undefined || first === '') continue;
    const said = code === 'invalid_input' ? input.get(first) : call[first];
    const joined = said === undefined ? v.message : said.includes(v.message) ? said : `${said}; ${v.message}`;
    if (code === 'invalid_input') input.set(first, joined);
    else call[first] = joined;
  }
  return { input, ...(call.identifier ? { identifier: call.identifier } : {}), ...(call.connection_name ? { connection: call.connection_name } : {}) };
}

export function registerToolExplorer<C extends { env: EnvironmentScope }>(app: FastifyInstance, deps: ToolExplorerDeps<C>): void {
  const render = async (request: FastifyRequest, reply: FastifyReply, ctx: C, toolName: string | undefined, form: Form, outcome: Record<string, unknown> = {}) => {
    const tools = deps.connector.tools.list();
    const tool = toolName ? deps.connector.tools.resolve(toolName) : undefined;
    const connections = tool ? (await ctx.env.listConnections()).filter((c) => c.connector === tool.connector) : [];
    const failure = outcome.failure as { code: string; message: string; violations: Violation[] } | undefined;
    const errors = fieldErrors(failure?.code ?? '', failure?.violations ?? []);
    // Left to "any" while the user has accounts on several of the tool's connections: the connection field says so.
    const connectionError = failure?.code === 'ambiguous_connection' ? failure.message : errors.connection;
    return deps.page(reply, ctx, 'tools', {
      title: 'Tool explorer',
      tools: tools.map((t) => ({ name: t.name, selected: t.name === tool?.name })),
      ...(tool
        ? {
            tool: { name: tool.name, connector: tool.connector, description: tool.description },
            connections: connections.map((c) => ({ name: c.name, selected: c.name === form.connection_name })),
            identifierValue: form.identifier ?? '',
            fields: formFields(tool.inputSchema, form).map((f) => ({ ...f, id: `field-${f.name}`, error: errors.input.get(f.name) })),
            identifierError: errors.identifier,
            connectionError,
          }
        : {}),
      ...outcome,
    });
  };

  app.get(
    '/tools',
    deps.signedIn(async (request, reply, ctx) => {
      const { tool } = request.query as { tool?: string };
      // A tool named in the address that does not exist (a stale bookmark, a typo) says so instead of showing the picker alone.
      const unknown = tool !== undefined && tool !== '' && deps.connector.tools.resolve(tool) === undefined;
      return render(request, reply, ctx, tool, {}, unknown ? { error: `No tool ${JSON.stringify(tool.slice(0, 200))}.` } : {});
    }),
  );

  app.post(
    '/tools/run',
    deps.signedIn(async (request, reply, ctx) => {
      const form = (request.body ?? {}) as Form;
      const tool = deps.connector.tools.resolve(form.tool ?? '');
      if (tool === undefined) return render(request, reply, ctx, undefined, form, { error: `No tool ${JSON.stringify(form.tool ?? '')}.` });
      const { input, problems } = inputFromForm(tool.inputSchema, form);
      if (problems.length > 0) return render(request, reply, ctx, tool.name, form, { failure: { code: 'invalid_input', message: 'Some fields could not be read.', violations: problems } });
      try {
        // Once per form: reloading the result's page would run the tool again (a second contact, event, row...).
        // The result is not kept (outputs never are); the page sent again links the execution instead.
        const call = () =>
          ctx.env.executeTool({
            tool_name: tool.name,
            identifier: form.identifier ?? '',
            tool_input: input,
            ...(form.connection_name ? { connection_name: form.connection_name } : {}),
          });
        const sent = await deps.once(ctx, form, 'tool.run', tool.name, call, (result) => ({ execution_id: result.execution_id }));
        if ('earlier' in sent) return render(request, reply, ctx, tool.name, form, { again: { at: sent.earlier.at, executionId: sent.earlier.result?.execution_id } });
        const result = sent.made;
        return render(request, reply, ctx, tool.name, form, { result: JSON.stringify(result.data, null, 2), executionId: result.execution_id, sent: JSON.stringify(input) });
      } catch (error) {
        const e = toConnectorError(error, request);
        const violations = (e.details as { violations?: { pointer: string; message: string }[] } | undefined)?.violations ?? [];
        const failure = { code: e.code, message: e.code === 'internal' ? `Something went wrong (request id ${request.id}).` : e.message, violations, executionId: e.executionId };
        return render(request, reply, ctx, tool.name, form, { failure, sent: JSON.stringify(input) });
      }
    }),
  );
}
