import type { BuildCase, RefuseCase } from '../harness.js';

const ID = '1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz';
const insert = { insertText: { location: { index: 1 }, text: 'Hello\n' } };

export const docsBuild: BuildCase[] = [
  {
    name: 'create with a title',
    tool: 'docs_create_document',
    input: { title: 'Notes' },
    want: { method: 'POST', path: '/v1/documents', query: {}, headers: {}, body: { title: 'Notes' } },
  },
  {
    name: 'create untitled: an empty JSON body',
    tool: 'docs_create_document',
    input: {},
    want: { method: 'POST', path: '/v1/documents', query: {}, headers: {}, body: {} },
  },
  {
    name: 'read with suggestions previewed as accepted',
    tool: 'docs_read_document',
    input: { document_id: ID, suggestions_view_mode: 'PREVIEW_SUGGESTIONS_ACCEPTED' },
    want: { method: 'GET', path: `/v1/documents/${ID}`, query: { suggestionsViewMode: 'PREVIEW_SUGGESTIONS_ACCEPTED' }, headers: {} },
  },
  {
    name: 'batch update with a required revision',
    tool: 'docs_update_document',
    input: { document_id: ID, requests: [insert], write_control: { requiredRevisionId: 'rev-7' } },
    want: { method: 'POST', path: `/v1/documents/${ID}:batchUpdate`, query: {}, headers: {}, body: { requests: [insert], writeControl: { requiredRevisionId: 'rev-7' } } },
  },
  {
    name: 'batch update without write control',
    tool: 'docs_update_document',
    input: { document_id: ID, requests: [insert, { replaceAllText: { containsText: { text: '{{name}}', matchCase: true }, replaceText: 'Ana' } }] },
    want: {
      method: 'POST', path: `/v1/documents/${ID}:batchUpdate`, query: {}, headers: {},
      body: { requests: [insert, { replaceAllText: { containsText: { text: '{{name}}', matchCase: true }, replaceText: 'Ana' } }] },
    },
  },
];

export const docsRefuse: RefuseCase[] = [
  { name: 'title not a string', tool: 'docs_create_document', input: { title: 42 }, pointer: '/title', names: 'title' },
  { name: 'document_id missing', tool: 'docs_read_document', input: {}, pointer: '/document_id', names: 'document_id' },
  { name: 'suggestions_view_mode unknown', tool: 'docs_read_document', input: { document_id: ID, suggestions_view_mode: 'ALL' }, pointer: '/suggestions_view_mode', names: 'suggestions_view_mode' },
  { name: 'requests missing', tool: 'docs_update_document', input: { document_id: ID }, pointer: '/requests', names: 'requests' },
  { name: 'requests empty', tool: 'docs_update_document', input: { document_id: ID, requests: [] }, pointer: '/requests', names: 'requests' },
  { name: 'a request not an object', tool: 'docs_update_document', input: { document_id: ID, requests: ['insertText'] }, pointer: '/requests/0', names: 'requests' },
  { name: 'both revision ids', tool: 'docs_update_document', input: { document_id: ID, requests: [insert], write_control: { requiredRevisionId: 'a', targetRevisionId: 'b' } }, pointer: '/write_control', names: 'write_control' },
];
