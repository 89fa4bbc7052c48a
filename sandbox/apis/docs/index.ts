/**
 * The Google Docs v1 fake. Requests arrive with paths like `/v1/documents/{id}:batchUpdate` (what follows
 * `https://docs.googleapis.com`); errors use the `{error:{code,message,status}}` shape.
 * @see https://developers.google.com/docs/api/reference/rest
 */
import type { ApiModule, ApiRequest, ApiResponse } from '../../types.js';
import { GoogleApiError, findFile, valueText } from '../google-common/errors.js';
import { googleApiModule } from '../google-common/module.js';
import { withJsonNames } from '../google-common/proto-json.js';
import { boolParam, isRecord, notFoundRoute, pathSegments, requireScope } from '../google-common/request.js';
import { applyRequest } from './batch-requests.js';
import { checkRequestFields } from './request-fields.js';
import { StoredDocument } from './document-store.js';

const SERVICE = 'docs.googleapis.com';
const READ = ['documents', 'documents.readonly', 'drive', 'drive.readonly', 'drive.file'];
const WRITE = ['documents', 'drive', 'drive.file'];
const VIEW_MODES = ['DEFAULT_FOR_CURRENT_ACCESS', 'SUGGESTIONS_INLINE', 'PREVIEW_SUGGESTIONS_ACCEPTED', 'PREVIEW_WITHOUT_SUGGESTIONS'];

/** A user's documents: a user sees the ones they created; another user's is refused (403), not hidden. */
type UserDocuments = Map<string, StoredDocument>;

export function createDocsApi(): ApiModule {
  return googleApiModule({ service: 'docs', serviceName: SERVICE, errorShape: 'modern', seed: (): UserDocuments => new Map(), route });
}

function route(req: ApiRequest, docs: UserDocuments, others: () => Iterable<UserDocuments>): ApiResponse {
  const seg = pathSegments(req.path);
  const m = req.method.toUpperCase();
  const need = (scopes: string[]): void => requireScope(req.scopes, scopes, SERVICE);
  if (seg[0] !== 'v1' || seg[1] === undefined || !seg[1].startsWith('documents')) throw notFoundRoute(req.method, req.path);
  if (seg.length === 2 && seg[1] === 'documents' && m === 'POST') {
    need(WRITE);
    const body = withJsonNames(req.body);
    const b = isRecord(body) ? body : {};
    if (b.title !== undefined && typeof b.title !== 'string') throw new GoogleApiError(400, "Invalid value at 'document.title' (TYPE_STRING)");
    const doc = new StoredDocument((b.title as string | undefined) || 'Untitled document');
    docs.set(doc.documentId, doc);
    return { status: 200, body: doc.render('SUGGESTIONS_INLINE', false) };
  }
  if (seg.length !== 3 || seg[1] !== 'documents') throw notFoundRoute(req.method, req.path);
  const last = seg[2] as string;
  const colon = last.indexOf(':');
  const id = colon < 0 ? last : last.slice(0, colon);
  const verb = colon < 0 ? undefined : last.slice(colon + 1);
  const find = (): StoredDocument => findFile(id, docs, others());
  if (verb === undefined && m === 'GET') {
    need(READ);
    const mode = req.query.get('suggestionsViewMode') ?? 'DEFAULT_FOR_CURRENT_ACCESS';
    if (!VIEW_MODES.includes(mode)) {
      throw new GoogleApiError(400, `Invalid value at 'suggestions_view_mode' (type.googleapis.com/google.apps.docs.v1.SuggestionsViewMode), "${mode}"`);
    }
    const includeTabs = boolParam(req.query, 'includeTabsContent');
    // The owner is an editor, for whom the default shows suggestions inline.
    return { status: 200, body: find().render(mode === 'DEFAULT_FOR_CURRENT_ACCESS' ? 'SUGGESTIONS_INLINE' : mode, includeTabs) };
  }
  if (verb === 'batchUpdate' && m === 'POST') {
    need(WRITE);
    return batchUpdate(find(), req.body);
  }
  throw notFoundRoute(req.method, req.path);
}

/** Checks the write control, applies every request to a copy, and commits only when all succeed. */
function batchUpdate(doc: StoredDocument, body: unknown): ApiResponse {
  // Top-level names here (write_control is writeControl); each request's kind and fields in applyRequest, after every
  // name in every request was checked, quoted as it was sent, as Google's parser reads the whole body first.
  const top = withJsonNames(body, 1);
  const b = isRecord(top) ? top : {};
  if (Array.isArray(b.requests)) checkRequestFields(b.requests);
  if (!Array.isArray(b.requests) || b.requests.length === 0) throw new GoogleApiError(400, 'Must specify at least one request.');
  if (b.writeControl !== undefined) {
    const writeControl = withJsonNames(b.writeControl);
    if (!isRecord(writeControl)) throw new GoogleApiError(400, "Invalid value at 'write_control'");
    const { requiredRevisionId, targetRevisionId } = writeControl;
    if (requiredRevisionId !== undefined && targetRevisionId !== undefined) {
      throw new GoogleApiError(400, "Invalid value at 'write_control' (oneof), oneof field 'control' is already set. Cannot set 'targetRevisionId'");
    }
    if (requiredRevisionId !== undefined && requiredRevisionId !== doc.revisionId) {
      throw new GoogleApiError(400, `The document revision does not match the required revision ID ${valueText(requiredRevisionId)}.`);
    }
    // The sandbox has no collaborators, so any revision this document has had is a valid base for the edits.
    if (targetRevisionId !== undefined && !doc.revisions.includes(targetRevisionId as string)) {
      throw new GoogleApiError(400, `The target revision ID ${valueText(targetRevisionId)} is invalid or too old.`);
    }
  }
  const draft = doc.body.clone();
  const replies = b.requests.map((r, i) => applyRequest(draft, r, i));
  doc.commit(draft);
  return {
    status: 200,
    body: { replies, writeControl: { requiredRevisionId: doc.revisionId }, documentId: doc.documentId },
  };
}
