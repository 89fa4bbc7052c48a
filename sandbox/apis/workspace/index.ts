import { notionUserId } from '../../core/ids.js';
import { notionError } from '../../dialects/notion.js';
import type { ApiModule, ApiRequest, ApiResponse } from '../../types.js';
import { requireCapability, requiredCapability } from './capabilities.js';
import { createComment, getComment, listComments } from './comments.js';
import { createDatabase, getDatabase, queryDatabase } from './databases.js';
import { createDataSource, getDataSource, queryDataSource } from './data-sources.js';
import { NotionApiError, normalizeId, notFound } from './errors.js';
import { blockChildren, createPage, getPage, updatePage } from './pages.js';
import { list, paginate } from './render.js';
import { search } from './search.js';
import { seedWorkspace, type Workspace } from './state.js';

/**
 * Versions the sandbox accepts. Shapes follow the version in the two generations the tools are built for: up to
 * 2022-06-28 databases hold their schema and rows; from 2025-09-03 they hold data sources (see state.ts). The other
 * changes of 2026-03-11 (`archived` dropped for `in_trash`, which every version answers beside it; block positions)
 * are not modelled.
 */
export const NOTION_VERSIONS = ['2021-05-13', '2021-08-16', '2022-02-22', '2022-06-28', '2025-09-03', '2026-03-11'];

function users(ws: Workspace) {
  const name = ws.user.split('@')[0] ?? ws.user;
  const person = { object: 'user', id: notionUserId(ws.user), name, avatar_url: null, type: 'person', person: { email: ws.user } };
  const bot = {
    object: 'user',
    id: ws.bot.id,
    name: 'Sandbox integration',
    avatar_url: null,
    type: 'bot',
    bot: { owner: { type: 'user', user: person }, workspace_name: `${name}'s workspace` },
  };
  return { person, bot };
}

const invalidUrl = () => Object.assign(new NotionApiError(400, 'invalid_request_url', 'Invalid request URL.'), { unmodelled: true as const });

function route(ws: Workspace, req: ApiRequest): ApiResponse {
  const segs = req.path.split('/').filter(Boolean);
  const [v1, resource, id, sub] = segs;
  const m = req.method;
  if (v1 !== 'v1' || !resource) throw invalidUrl();
  requireCapability(req.capabilities, requiredCapability(m, segs));
  // Notion's answers to an address or method it has no endpoint for: what the fake does not model.
  const methodNotAllowed = () => Object.assign(new NotionApiError(400, 'invalid_request', `Unsupported request: ${m} ${req.path}.`), { unmodelled: true as const });
  switch (resource) {
    case 'users': {
      const { person, bot } = users(ws);
      if (id === 'me' && !sub && m === 'GET') return { status: 200, body: bot };
      if (!id && m === 'GET') return { status: 200, body: list('user', paginate([person, bot], (u) => u.id, req.query.get('start_cursor') ?? undefined, req.query.get('page_size') ?? undefined, 'query')) };
      if (id && !sub && m === 'GET') {
        const uid = normalizeId(id, 'path.user_id');
        const u = [person, bot].find((x) => x.id === uid);
        if (!u) throw notFound(uid, 'user');
        return { status: 200, body: u };
      }
      throw methodNotAllowed();
    }
    case 'pages':
      if (!id && m === 'POST') return createPage(ws, req);
      if (id && !sub && m === 'GET') return getPage(ws, req, id);
      if (id && !sub && m === 'PATCH') return updatePage(ws, req, id);
      throw methodNotAllowed();
    case 'blocks':
      if (id && sub === 'children' && (m === 'GET' || m === 'PATCH')) return blockChildren(ws, req, id);
      throw methodNotAllowed();
    case 'databases':
      if (!id && m === 'POST') return createDatabase(ws, req);
      if (id && !sub && m === 'GET') return getDatabase(ws, req, id);
      if (id && sub === 'query' && m === 'POST') return queryDatabase(ws, req, id);
      throw methodNotAllowed();
    case 'data_sources':
      if (!id && m === 'POST') return createDataSource(ws, req);
      if (id && !sub && m === 'GET') return getDataSource(ws, req, id);
      if (id && sub === 'query' && m === 'POST') return queryDataSource(ws, req, id);
      throw methodNotAllowed();
    case 'comments':
      if (!id && m === 'POST') return createComment(ws, req);
      if (!id && m === 'GET') return listComments(ws, req);
      if (id && !sub && m === 'GET') return getComment(ws, id);
      throw methodNotAllowed();
    case 'search':
      if (!id && m === 'POST') return search(ws, req);
      throw methodNotAllowed();
    default:
      throw invalidUrl();
  }
}

/**
 * The fake Notion API: users, pages, block children, databases with schemas and queries (and from 2025-09-03
 * their data sources), comments, search, each in the shapes of the call's Notion-Version. Every request needs `Notion-Version`. Objects the user did not share answer 404; a call needing
 * a capability the integration (registered client) lacks answers 403 `restricted_resource`.
 * @see https://developers.notion.com/reference/intro
 */
export function createWorkspaceApi(): ApiModule {
  const workspaces = new Map<string, Workspace>();
  return {
    service: 'workspace',
    dialect: 'notion',
    users: workspaces as Map<string, unknown>,
    seedUser(user, now) {
      if (!workspaces.has(user)) workspaces.set(user, seedWorkspace(user, now));
    },
    handle(req) {
      const version = req.headers['notion-version'];
      if (version === undefined) {
        return notionError(400, 'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.', { reason: 'missing_version' });
      }
      if (!NOTION_VERSIONS.includes(version)) {
        return notionError(400, `Notion-Version header failed validation: Notion-Version header should be a valid version, instead was \`"${version}"\`.`, { reason: 'validation_error' });
      }
      let ws = workspaces.get(req.user);
      // A workspace restored from a state file written before data sources were modelled has none: it starts over
      // from the sample data rather than answer from a shape the handlers no longer read.
      if (!ws || !(ws.dataSources instanceof Map)) {
        ws = seedWorkspace(req.user, req.now);
        workspaces.set(req.user, ws);
      }
      try {
        return route(ws, req);
      } catch (err) {
        if (err instanceof NotionApiError) return err.toResponse();
        throw err;
      }
    },
    errorResponse: (status, message, extra) => notionError(status, message, extra),
  };
}
