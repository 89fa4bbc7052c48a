import { describe, expect, it } from 'vitest';
import { parseClientArg, runSandboxCli } from '../../sandbox/main.js';
import { form } from './helpers.js';

describe('sandbox CLI entry', () => {
  it('parses --client values and refuses bad ones', () => {
    expect(parseClientArg('google,id,secret,http://localhost/cb')).toEqual({ provider: 'google', clientId: 'id', clientSecret: 'secret', redirectUris: ['http://localhost/cb'] });
    expect(() => parseClientArg('github,id,secret,http://x')).toThrow(/provider/);
    expect(() => parseClientArg('google,id,secret')).toThrow();
  });

  it('starts standalone, prints the endpoints as JSON, and serves the OAuth servers with injected faults', async () => {
    const lines: string[] = [];
    const sb = await runSandboxCli({ json: true, log: (l) => lines.push(l), clients: [parseClientArg('google,id,secret,http://localhost/cb')] });
    try {
      const printed = JSON.parse(lines[0] as string) as { url: string; endpoints: Record<string, { tokenUrl: string }> };
      expect(printed.url).toBe(sb.url);
      expect(printed.endpoints.calendar?.tokenUrl).toBe(`${sb.url}/google/token`);
      sb.control.setFault('oauth:google', { failNext: { count: 1, status: 503 } });
      const body = { grant_type: 'refresh_token', refresh_token: 'nope', client_id: 'id', client_secret: 'secret' };
      const failed = await fetch(`${sb.url}/google/token`, form(body));
      expect(failed.status).toBe(503);
      const normal = await fetch(`${sb.url}/google/token`, form(body));
      expect(normal.status).toBe(400);
      expect(sb.control.tokenRequestCount('google', 'refresh_token')).toBe(1);
      const recorded = sb.control.requests('oauth:google');
      expect(recorded).toHaveLength(2);
      expect((recorded[1]?.body as Record<string, string>).client_secret).toBe('[redacted]');
    } finally {
      await sb.close();
    }
  });
});
