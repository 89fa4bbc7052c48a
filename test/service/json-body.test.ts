import fastify from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendError, toConnectorError } from '../../runtime/service/errors.js';
import { jsonErrorPosition } from '../../runtime/json/json-text-problem.js';
import { InvalidJsonBodyError, jsonBodyParser, parseJsonBody } from '../../runtime/service/json-body.js';

function refusal(text: string): InvalidJsonBodyError {
  try {
    parseJsonBody(text);
  } catch (error) {
    if (error instanceof InvalidJsonBodyError) return error;
    throw error;
  }
  throw new Error(`parsed: ${text}`);
}

describe('parseJsonBody', () => {
  it('says where the body stops being JSON', () => {
    expect(refusal('{"name": "x", "a":').position).toBe(18);
    expect(refusal('{"name": "x", "a":').message).toBe('The request body is not valid JSON (at position 18: Unexpected end of JSON input)');
    expect(refusal('{"a":1').message).toBe("The request body is not valid JSON (at position 6: Expected ',' or '}' after property value)");
    expect(refusal('{"a":1}}').position).toBe(7);
    expect(refusal('[1,]').position).toBe(3);
    expect(refusal('{"a":}').position).toBe(5);
  });

  it('never repeats the body (V8 quotes it in some messages)', () => {
    const error = refusal('{"client_secret":"hunter2-secret",}');
    expect(error.message).not.toContain('hunter2');
    expect(error.position).toBe(34);
  });

  it('never repeats a long body either, where V8 quotes an excerpt with ... on either side', () => {
    // V8: `Unexpected token 'S', ..."t_secret":SUPERSECRE"... is not valid JSON`
    const error = refusal('{"name":"x","connector":"calendar","client_secret":SUPERSECRETVALUE123,"client_id":"a"}');
    expect(error.message).toBe("The request body is not valid JSON (at position 51: Unexpected token 'S')");
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (before, after) => {
        const text = `{"pad":${JSON.stringify(before)},"client_secret":XSECRETVALUEX,"more":${JSON.stringify(after)}}`;
        const { reason } = refusal(text);
        expect(reason).not.toContain('SECRETVALUE');
        expect(reason).not.toMatch(/is not valid JSON/);
      }),
    );
  });

  it('refuses prototype-poisoning keys like fastify does', () => {
    expect(refusal('{"a":{"__proto__":{"x":1}}}').reason).toMatch(/prototype/);
    expect(refusal('{"constructor":{"prototype":{"x":1}}}').reason).toMatch(/prototype/);
    expect(parseJsonBody('{"constructor":"fine"}')).toEqual({ constructor: 'fine' });
  });

  it('finds the same position as V8 wherever V8 states one, and -1 for valid JSON', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', '}', ']', ',', ':', '"', 'x', '\\', '\n', '1', ' '), (json, at, insert) => {
        const cut = at % (json.length + 1);
        const text = json.slice(0, cut) + insert + json.slice(cut);
        let message: string | null = null;
        try {
          JSON.parse(text);
        } catch (error) {
          message = (error as Error).message;
        }
        const found = jsonErrorPosition(text);
        const stated = message === null ? null : /at position (\d+)/.exec(message);
        if (message === null) expect(found, text).toBe(-1);
        else if (stated) expect(found, text).toBe(Number(stated[1]));
        else if (/end of JSON input/.test(message)) expect(found, text).toBe(text.length);
        else expect(found, text).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('jsonBodyParser behind the service error renderer', () => {
  const app = fastify();
  let url = '';
  beforeAll(async () => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser);
    app.setErrorHandler((error, request, reply) => sendError(reply, toConnectorError(error, request)));
    app.post('/echo', async (request) => ({ got: request.body }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => app.close());

  const post = async (body: string) => {
    const res = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('answers 400 invalid_request with the position in the message and details', async () => {
    const res = await post('{"name": "x", "a":');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'invalid_request',
      message: 'The request body is not valid JSON (at position 18: Unexpected end of JSON input)',
      details: { position: 18 },
    });
  });

  it('answers an empty body and still parses good ones', async () => {
    expect((await post('')).body.error).toMatchObject({ code: 'invalid_request', details: { position: 0 } });
    expect((await post('{"a":[1,2]}')).body).toEqual({ got: { a: [1, 2] } });
  });
});
