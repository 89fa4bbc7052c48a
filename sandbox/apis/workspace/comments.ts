import { randomUUID } from 'node:crypto';
import type { ApiRequest, ApiResponse } from '../../types.js';
import { isObject, normalizeId, notFound, unionValidation, validation } from './errors.js';
import { list, paginate } from './render.js';
import { richText } from './rich-text.js';
import { notionTime, type CommentRecord, type Workspace } from './state.js';

/** `POST /v1/comments`: exactly one of `parent.page_id` (new discussion) or `discussion_id` (reply). */
export function createComment(ws: Workspace, req: ApiRequest): ApiResponse {
  const body = req.body;
  if (!isObject(body)) throw validation('body failed validation: body should be an object.');
  const hasParent = body.parent !== undefined;
  const hasDiscussion = body.discussion_id !== undefined;
  if (hasParent === hasDiscussion) {
    throw unionValidation(['body.parent should be defined, instead was `undefined`.', 'body.discussion_id should be defined, instead was `undefined`.']);
  }
  const text = richText(body.rich_text, 'body.rich_text');
  let parent: CommentRecord['parent'];
  let discussionId: string;
  if (hasParent) {
    if (!isObject(body.parent) || body.parent.page_id === undefined) throw validation('body.parent.page_id should be defined, instead was `undefined`.');
    const pageId = normalizeId(body.parent.page_id, 'body.parent.page_id');
    if (!ws.visiblePage(pageId)) throw notFound(pageId, 'page');
    parent = { type: 'page_id', page_id: pageId };
    discussionId = randomUUID();
  } else {
    if (typeof body.discussion_id !== 'string') throw validation('body.discussion_id should be a string.');
    const id = body.discussion_id;
    const first = ws.comments.find((c) => c.discussion_id === id || c.discussion_id.replace(/-/g, '') === id.replace(/-/g, ''));
    if (!first) throw notFound(id, 'discussion');
    parent = first.parent;
    discussionId = first.discussion_id;
  }
  const t = notionTime(req.now);
  const comment: CommentRecord = {
    object: 'comment',
    id: randomUUID(),
    parent,
    discussion_id: discussionId,
    created_time: t,
    last_edited_time: t,
    created_by: ws.bot,
    rich_text: text,
  };
  ws.comments.push(comment);
  return { status: 200, body: { ...comment } };
}

/** `GET /v1/comments/{id}` */
export function getComment(ws: Workspace, rawId: string): ApiResponse {
  const id = normalizeId(rawId, 'path.comment_id');
  const c = ws.comments.find((x) => x.id === id);
  if (!c) throw notFound(id, 'comment');
  return { status: 200, body: { ...c } };
}

/** `GET /v1/comments?block_id=` (oldest first, paginated). */
export function listComments(ws: Workspace, req: ApiRequest): ApiResponse {
  const raw = req.query.get('block_id');
  if (raw === null) throw validation('query.block_id should be defined, instead was `undefined`.');
  const id = normalizeId(raw, 'query.block_id');
  if (!ws.visiblePage(id)) throw notFound(id, 'block');
  const all = ws.comments.filter((c) => (c.parent.type === 'page_id' ? c.parent.page_id : c.parent.block_id) === id);
  const page = paginate(all, (c) => c.id, req.query.get('start_cursor') ?? undefined, req.query.get('page_size') ?? undefined, 'query');
  return { status: 200, body: list('comment', { ...page, results: page.results.map((c) => ({ ...c })) }) };
}
