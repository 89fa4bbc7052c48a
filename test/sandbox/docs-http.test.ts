import { describe, expect, it } from 'vitest';
import { googleApiOverHttp } from './helpers.js';

describe('Docs fake over HTTP', () => {
  const { api } = googleApiOverHttp('docs', '/v1', 'http-docs@example.com', 'https://www.googleapis.com/auth/documents');

  it('creates a document and edits it through :batchUpdate, atomically', async () => {
    const created = await api('/documents', { method: 'POST', body: JSON.stringify({ title: 'HTTP doc' }) });
    expect(created.status).toBe(200);
    const id = created.body.documentId as string;
    const edit = await api(`/documents/${id}:batchUpdate`, {
      method: 'POST',
      body: JSON.stringify({
        requests: [{ insertText: { text: 'Hello', location: { index: 1 } } }],
        writeControl: { requiredRevisionId: created.body.revisionId },
      }),
    });
    expect(edit.status).toBe(200);
    expect(edit.body.replies).toEqual([{}]);
    const failed = await api(`/documents/${id}:batchUpdate`, {
      method: 'POST',
      body: JSON.stringify({ requests: [{ insertText: { text: 'X', location: { index: 1 } } }, { insertText: { text: 'Y', location: { index: 0 } } }] }),
    });
    expect(failed.status).toBe(400);
    expect(failed.body.error.message).toMatch(/^Invalid requests\[1\]\.insertText/);
    const doc = await api(`/documents/${id}`);
    expect(doc.body.body.content[1].paragraph.elements[0].textRun.content).toBe('Hello\n');
    expect(doc.body.revisionId).toBe(edit.body.writeControl.requiredRevisionId);
  });
});
