/**
 * Which webhook endpoint URLs the policy admits, in each of its modes (the connection-override policy, read from the
 * same variable): table-driven, each case naming why.
 */
import { describe, expect, it } from 'vitest';
import { readOverridePolicy } from '../../../runtime/connection-override-policy.js';
import { webhookUrlRefusal } from '../../../runtime/webhooks/endpoint-url.js';

const development = readOverridePolicy({}, false);
const production = readOverridePolicy({}, true);
const allowlist = readOverridePolicy({ AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES: 'https://hooks.partner.example,http://10.0.0.5:8080' }, false);
const withControl = { ...development, refusedOrigins: ['http://127.0.0.1:7001'] };

const cases: [string, { url: unknown; policy: typeof development; refused: RegExp | null }][] = [
  ['dev: https anywhere', { url: 'https://hooks.example.com/agent', policy: development, refused: null }],
  ['dev: http to loopback (a local receiver)', { url: 'http://127.0.0.1:4000/hook', policy: development, refused: null }],
  ['dev: http elsewhere', { url: 'http://hooks.example.com/agent', policy: development, refused: /https/ }],
  ['dev: the metadata endpoint', { url: 'http://169.254.169.254/latest/meta-data', policy: development, refused: /link-local/ }],
  ['dev: the metadata endpoint over https, IPv4-mapped', { url: 'https://[::ffff:a9fe:a9fe]/latest', policy: development, refused: /link-local/ }],
  ['dev: the metadata endpoint through NAT64', { url: 'http://[64:ff9b::a9fe:a9fe]/latest', policy: development, refused: /link-local/ }],
  ['dev: the metadata endpoint through 6to4', { url: 'https://[2002:a9fe:a9fe::]/latest', policy: development, refused: /link-local/ }],
  ['dev: the metadata endpoint through SIIT', { url: 'https://[::ffff:0:a9fe:a9fe]/latest', policy: development, refused: /link-local/ }],
  ['dev: the metadata endpoint, IPv4-compatible', { url: 'https://[::169.254.169.254]/latest', policy: development, refused: /link-local/ }],
  ['dev: the metadata endpoint through Teredo', { url: 'https://[2001:0:4136:e378:8000:63bf:5601:5601]/latest', policy: development, refused: /link-local/ }],
  ['dev: a local-use NAT64 address', { url: 'https://[64:ff9b:1::808:808]/hook', policy: development, refused: /local-use NAT64/ }],
  ['dev: https to a private address (only production refuses it)', { url: 'https://10.1.2.3/hook', policy: development, refused: null }],
  ['dev: the sandbox control API', { url: 'http://127.0.0.1:7001/_sandbox/faults', policy: withControl, refused: /never a webhook target/ }],
  ['dev: the sandbox control API by another loopback name', { url: 'http://localhost:7001/_sandbox/faults', policy: withControl, refused: /never a webhook target/ }],
  ['dev: the sandbox control API by an IPv6 loopback', { url: 'http://[::1]:7001/_sandbox/faults', policy: withControl, refused: /never a webhook target/ }],
  ['dev: another loopback port', { url: 'http://localhost:7002/hook', policy: withControl, refused: null }],
  ['any: not a string', { url: 42, policy: development, refused: /non-empty string/ }],
  ['any: not a URL', { url: 'hooks.example.com/agent', policy: development, refused: /absolute URL/ }],
  ['any: another scheme', { url: 'ftp://hooks.example.com/agent', policy: development, refused: /http\(s\)/ }],
  ['any: credentials in the URL', { url: 'https://user:pw@hooks.example.com/agent', policy: development, refused: /credentials/ }],
  ['any: a fragment', { url: 'https://hooks.example.com/agent#x', policy: development, refused: /fragment/ }],
  ['production: https to a public host', { url: 'https://hooks.example.com/agent?tenant=1', policy: production, refused: null }],
  ['production: http', { url: 'http://hooks.example.com/agent', policy: production, refused: /^must use https \(unless its origin is listed in AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES\)$/ }],
  ['production: loopback', { url: 'https://127.0.0.1/hook', policy: production, refused: /^is not allowed: loopback, private and link-local addresses are not webhook targets \(unless its origin is listed in AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES\)$/ }],
  ['production: localhost', { url: 'https://localhost/hook', policy: production, refused: /loopback, private/ }],
  ['production: a localhost subdomain', { url: 'https://api.localhost/hook', policy: production, refused: /loopback, private/ }],
  ['production: localhost as a fully qualified name', { url: 'https://localhost./hook', policy: production, refused: /loopback, private/ }],
  ['production: a localhost subdomain, fully qualified', { url: 'https://api.LOCALHOST./hook', policy: production, refused: /loopback, private/ }],
  ['production: a public name that merely starts with localhost', { url: 'https://localhost.example.com/hook', policy: production, refused: null }],
  ['production: the unspecified address', { url: 'https://0.0.0.0/hook', policy: production, refused: /loopback, private/ }],
  ['production: the unspecified IPv6 address', { url: 'https://[::]/hook', policy: production, refused: /loopback, private/ }],
  ['production: private 172.16/12', { url: 'https://172.31.0.1/hook', policy: production, refused: /loopback, private/ }],
  ['production: just outside 172.16/12', { url: 'https://172.32.0.1/hook', policy: production, refused: null }],
  ['production: shared 100.64/10', { url: 'https://100.64.0.1/hook', policy: production, refused: /loopback, private/ }],
  ['production: IPv6 link-local', { url: 'https://[fe80::1]/hook', policy: production, refused: /loopback, private/ }],
  ['production: IPv4-mapped private, hex form', { url: 'https://[::ffff:a00:1]/hook', policy: production, refused: /loopback, private/ }],
  ['production: a numeric loopback host', { url: 'https://2130706433/hook', policy: production, refused: /loopback, private/ }],
  ['production: a public IPv6 address', { url: 'https://[2001:db8::1]/hook', policy: production, refused: null }],
  ['production: a public IPv4-mapped address', { url: 'https://[::ffff:8.8.8.8]/hook', policy: production, refused: null }],
  ['production: private 10/8', { url: 'https://10.1.2.3/hook', policy: production, refused: /loopback, private/ }],
  ['production: private 192.168/16', { url: 'https://192.168.0.10/hook', policy: production, refused: /loopback, private/ }],
  ['production: IPv6 loopback', { url: 'https://[::1]/hook', policy: production, refused: /loopback, private/ }],
  ['production: IPv4-mapped loopback', { url: 'https://[::ffff:127.0.0.1]/hook', policy: production, refused: /loopback, private/ }],
  ['production: unique-local IPv6', { url: 'https://[fd00::1]/hook', policy: production, refused: /loopback, private/ }],
  ['production: the metadata endpoint', { url: 'https://169.254.169.254/latest', policy: production, refused: /loopback, private/ }],
  ['production: the metadata endpoint through NAT64', { url: 'http://[64:ff9b::a9fe:a9fe]/', policy: production, refused: /must use https/ }],
  ['production: the metadata endpoint through NAT64, https', { url: 'https://[64:ff9b::a9fe:a9fe]/', policy: production, refused: /loopback, private/ }],
  ['production: loopback through NAT64', { url: 'https://[64:ff9b::7f00:1]/hook', policy: production, refused: /loopback, private/ }],
  ['production: private through 6to4', { url: 'https://[2002:a00:1::]/hook', policy: production, refused: /loopback, private/ }],
  ['production: a local-use NAT64 address', { url: 'https://[64:ff9b:1::808:808]/hook', policy: production, refused: /loopback, private/ }],
  ['production: a public address through NAT64', { url: 'https://[64:ff9b::808:808]/hook', policy: production, refused: null }],
  ['production: loopback, IPv4-compatible', { url: 'https://[::7f00:1]/hook', policy: production, refused: /loopback, private/ }],
  ['production: private through Teredo', { url: 'https://[2001::f5ff:fffe]/hook', policy: production, refused: /loopback, private/ }],
  ['production: a public address through Teredo', { url: 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', policy: production, refused: null }],
  ['production: a public address through 6to4', { url: 'https://[2002:808:808::1]/hook', policy: production, refused: null }],
  ['allowlist: a listed origin', { url: 'https://hooks.partner.example/in', policy: allowlist, refused: null }],
  ['allowlist: a listed internal origin, as the operator chose', { url: 'http://10.0.0.5:8080/in', policy: allowlist, refused: null }],
  ['allowlist: anything else', { url: 'https://hooks.example.com/agent', policy: allowlist, refused: /not in AGENT_CONNECTOR_ALLOW_CONNECTION_OVERRIDES/ }],
];

describe('webhookUrlRefusal', () => {
  it.each(cases)('%s', (_name, { url, policy, refused }) => {
    const verdict = webhookUrlRefusal(url, policy);
    if (refused === null) expect(verdict).toBeNull();
    else expect(verdict).toMatch(refused);
  });
});
