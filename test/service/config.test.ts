import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { loadSigningKeys } from '../../runtime/service/dev-state.js';
import { ConfigError, readClientConfig, readClientId, readConfig, readStoreConfig, serviceUrlFor, type ClientFlags } from '../../runtime/service/config.js';

const SIGNING_KEY = 'a'.repeat(64);
const ENCRYPTION_KEY = `k1:${Buffer.alloc(32, 7).toString('base64')}`;
const PRODUCTION = { NODE_ENV: 'production', AGENT_CONNECTOR_ENCRYPTION_KEY: ENCRYPTION_KEY, AGENT_CONNECTOR_TOKEN_SIGNING_KEY: SIGNING_KEY };

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    readConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('readConfig accepted the environment');
}

describe('readConfig: defaults', () => {
  it('defaults for development: sandbox on, no proxy trusted, store in ./.agent-connector', () => {
    const config = readConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', sandbox: true, trustProxy: false, production: false, databaseUrl: undefined, encryptionKeys: undefined });
    expect(config.dataDir).toMatch(/\.agent-connector$/);
  });

  it('readStoreConfig reads what start and the store commands share', () => {
    expect(readStoreConfig({ DATABASE_URL: 'postgres://x/y', AGENT_CONNECTOR_DATA_DIR: '/tmp/ac', AGENT_CONNECTOR_ENCRYPTION_KEY: ENCRYPTION_KEY, NODE_ENV: 'production' })).toEqual({
      databaseUrl: 'postgres://x/y',
      databasePoolSize: 10,
      dataDir: '/tmp/ac',
      encryptionKeys: ENCRYPTION_KEY,
      production: true,
    });
  });
});

describe('serviceUrlFor: the service URL from HOST and the port (the service and `mcp --local`)', () => {
  it('puts an IPv6 address in brackets, and leaves names and IPv4 as they are', () => {
    expect(serviceUrlFor('::1', 3000)).toBe('http://[::1]:3000');
    expect(new URL(serviceUrlFor('::', 8080)).port).toBe('8080');
    expect(serviceUrlFor('127.0.0.1', 3000)).toBe('http://127.0.0.1:3000');
    expect(serviceUrlFor('localhost', 80)).toBe('http://localhost:80');
  });
});

describe('NODE_ENV: only production, development, test or unset', () => {
  it('reads the known values, and unset or empty as development', () => {
    expect(readStoreConfig({ NODE_ENV: 'production' }).production).toBe(true);
    for (const value of ['development', 'test', '', undefined]) expect(readStoreConfig({ NODE_ENV: value }).production, String(value)).toBe(false);
  });

  it('refuses any other value, naming NODE_ENV and the accepted values, in the service and the store commands alike', () => {
    for (const value of ['prod', 'Production', 'PRODUCTION', 'staging', ' production']) {
      const error = configError({ ...PRODUCTION, NODE_ENV: value });
      expect(error.message).toContain(`NODE_ENV must be production, development, test or unset (got ${JSON.stringify(value)})`);
      expect(() => readStoreConfig({ NODE_ENV: value }), value).toThrow(ConfigError);
    }
  });
});

describe('readConfig: NODE_ENV=production listening on every address', () => {
  it('needs AGENT_CONNECTOR_BASE_URL, since the URL made from HOST (http://0.0.0.0:3000) reaches nothing', () => {
    for (const host of ['0.0.0.0', '::', '0:0:0:0:0:0:0:0']) {
      const error = configError({ ...PRODUCTION, HOST: host });
      expect(error.message).toMatch(new RegExp(`^NODE_ENV=production with HOST=${host.replace(/\./g, '\\.')}: set AGENT_CONNECTOR_BASE_URL to the origin`));
      expect(readConfig({ ...PRODUCTION, HOST: host, AGENT_CONNECTOR_BASE_URL: 'https://connect.example.com' }).host).toBe(host);
    }
    // A named host or a specific address is reachable as it is; outside production the default stays.
    expect(readConfig({ ...PRODUCTION, HOST: '10.0.0.5' }).baseUrl).toBeUndefined();
    expect(readConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});

describe('readConfig: NODE_ENV=production', () => {
  it('turns the sandbox off unless AGENT_CONNECTOR_SANDBOX enables it', () => {
    expect(readConfig(PRODUCTION).sandbox).toBe(false);
    expect(readConfig({ ...PRODUCTION, AGENT_CONNECTOR_SANDBOX: '1' }).sandbox).toBe(true);
    expect(readConfig({ ...PRODUCTION, AGENT_CONNECTOR_SANDBOX: 'true' }).sandbox).toBe(true);
    expect(readConfig({ ...PRODUCTION, AGENT_CONNECTOR_SANDBOX: '0' }).sandbox).toBe(false);
    expect(readConfig({ ...PRODUCTION, AGENT_CONNECTOR_SANDBOX: '' }).sandbox).toBe(false);
    // Outside production the default stays on.
    expect(readConfig({ NODE_ENV: 'development' }).sandbox).toBe(true);
    expect(readConfig({ AGENT_CONNECTOR_SANDBOX: 'off' }).sandbox).toBe(false);
  });

  it('refuses to start without the token signing key, naming the variable', () => {
    const error = configError({ ...PRODUCTION, AGENT_CONNECTOR_TOKEN_SIGNING_KEY: undefined });
    expect(error.message).toMatch(/^NODE_ENV=production: refusing to start without AGENT_CONNECTOR_TOKEN_SIGNING_KEY/);
    expect(error.message).not.toContain('AGENT_CONNECTOR_ENCRYPTION_KEY');
    expect(configError({ ...PRODUCTION, AGENT_CONNECTOR_TOKEN_SIGNING_KEY: '' }).message).toContain('AGENT_CONNECTOR_TOKEN_SIGNING_KEY');
    expect(readConfig(PRODUCTION).signingKey).toBe(SIGNING_KEY);
  });

  it('names every missing secret at once', () => {
    const error = configError({ NODE_ENV: 'production' });
    expect(error.message).toContain('AGENT_CONNECTOR_ENCRYPTION_KEY');
    expect(error.message).toContain('AGENT_CONNECTOR_TOKEN_SIGNING_KEY');
  });

  it('does not require the secrets outside production', () => {
    expect(readConfig({ NODE_ENV: 'test' }).signingKey).toBeUndefined();
  });
});

describe('readConfig: URLs and numbers are checked before anything starts', () => {
  it('takes AGENT_CONNECTOR_BASE_URL only as an origin: no path, query, user name, space or bad port', () => {
    expect(readConfig({ AGENT_CONNECTOR_BASE_URL: 'https://connect.example.com/' }).baseUrl).toBe('https://connect.example.com');
    expect(readConfig({ AGENT_CONNECTOR_BASE_URL: 'http://[::1]:3000' }).baseUrl).toBe('http://[::1]:3000');
    for (const bad of ['ftp://x', 'https://x/path', 'https://x?y=1', 'https://x#f', 'https://a b', 'https://x:99999', 'connect.example.com']) {
      expect(configError({ AGENT_CONNECTOR_BASE_URL: bad }).message, bad).toMatch(/^AGENT_CONNECTOR_BASE_URL must be an origin/);
    }
    const withUser = configError({ AGENT_CONNECTOR_BASE_URL: 'https://admin:hunter2@x' }).message;
    expect(withUser).toMatch(/^AGENT_CONNECTOR_BASE_URL must be an origin/);
    expect(withUser).not.toContain('hunter2');
  });

  it('takes DATABASE_URL only as a postgres:// URL, and never shows its password', () => {
    expect(readStoreConfig({ DATABASE_URL: 'postgresql://u:pw@db:5432/ac?sslmode=require' }).databaseUrl).toBe('postgresql://u:pw@db:5432/ac?sslmode=require');
    for (const bad of ['mysql://u:hunter2@db/ac', 'db.internal:5432/ac', 'hunter2']) {
      const message = configError({ DATABASE_URL: bad }).message;
      expect(message).toMatch(/^DATABASE_URL must be a postgres:\/\/ URL/);
      if (bad.includes('@')) expect(message).not.toContain('hunter2');
    }
  });

  it('takes REDIS_URL with a database number or none, where ioredis would crash the process on SELECT NaN', () => {
    expect(readConfig({ REDIS_URL: 'redis://:pw@127.0.0.1:6379/3' }).redisUrl).toBe('redis://:pw@127.0.0.1:6379/3');
    expect(readConfig({ REDIS_URL: 'rediss://cache.internal' }).redisUrl).toBe('rediss://cache.internal');
    for (const bad of ['redis://:hunter2@127.0.0.1:6379/abc', 'http://127.0.0.1:6379', 'redis://', 'redis://h/1?x=y']) {
      const message = configError({ REDIS_URL: bad }).message;
      expect(message, bad).toMatch(/^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
      expect(message).not.toContain('hunter2');
    }
  });

  it('takes numbers in decimal digits only', () => {
    expect(readConfig({ AGENT_CONNECTOR_RATE_LIMIT: '1000' }).rateLimitPerMinute).toBe(1000);
    for (const bad of ['1e3', '0x10', ' 80', '80 ', '+80', '8_0']) {
      expect(configError({ AGENT_CONNECTOR_RATE_LIMIT: bad }).message, bad).toBe(`AGENT_CONNECTOR_RATE_LIMIT must be an integer from 0 to 10000000 (got ${JSON.stringify(bad)})`);
    }
  });
});

describe('readConfig: AGENT_CONNECTOR_SANDBOX', () => {
  it('refuses a value that is neither on nor off', () => {
    expect(configError({ AGENT_CONNECTOR_SANDBOX: 'maybe' }).message).toMatch(/AGENT_CONNECTOR_SANDBOX must be 1 or 0/);
  });
});

describe('readConfig: AGENT_CONNECTOR_TRUST_PROXY', () => {
  const cases: [string, string | undefined, unknown][] = [
    ['unset', undefined, false],
    ['0', '0', false],
    ['false', 'false', false],
    ['1 means every hop', '1', true],
    ['true', 'TRUE', true],
    ['one address', '10.0.0.1', ['10.0.0.1']],
    ['addresses, CIDRs and named ranges', ' 10.0.0.0/8, ::1 ,fd00::/8,loopback', ['10.0.0.0/8', '::1', 'fd00::/8', 'loopback']],
  ];
  it.each(cases)('%s', (_name, raw, want) => {
    expect(readConfig({ AGENT_CONNECTOR_TRUST_PROXY: raw }).trustProxy).toEqual(want);
  });

  const refused: [string, string][] = [
    ['a host name', 'proxy.internal'],
    ['a prefix too long', '10.0.0.0/33'],
    ['an IPv6 prefix too long', '::1/129'],
    ['a CIDR without a prefix', '10.0.0.0/'],
    ['a list with a bad entry', '10.0.0.1,nope'],
  ];
  it.each(refused)('refuses %s', (_name, raw) => {
    expect(configError({ AGENT_CONNECTOR_TRUST_PROXY: raw }).message).toMatch(/AGENT_CONNECTOR_TRUST_PROXY must be/);
  });

  it.each(['2', '1000'])('refuses the hop count %s, which fastify would silently ignore, and says what to use', (raw) => {
    expect(configError({ AGENT_CONNECTOR_TRUST_PROXY: raw }).message).toMatch(/hop count is not supported.*addresses or CIDR ranges/);
  });
});

describe('readConfig: OpenTelemetry (OTEL_*)', () => {
  const on: [string, NodeJS.ProcessEnv, boolean][] = [
    ['nothing set', {}, false],
    ['traces exporter none', { OTEL_TRACES_EXPORTER: 'none' }, false],
    ['traces exporter otlp', { OTEL_TRACES_EXPORTER: 'otlp' }, true],
    ['metrics exporter prometheus', { OTEL_METRICS_EXPORTER: 'prometheus' }, true],
    ['two traces exporters', { OTEL_TRACES_EXPORTER: 'otlp, console' }, true],
    ['an OTLP endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    ['a traces endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/v1/traces' }, true],
    ['a metrics endpoint', { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://collector:4318/v1/metrics' }, true],
    ['an endpoint, but OTEL_SDK_DISABLED=true', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' }, false],
    ['an endpoint, OTEL_SDK_DISABLED=false', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' }, true],
  ];
  it.each(on)('telemetry on? %s', (_name, env, want) => {
    expect(readConfig(env).telemetry.enabled).toBe(want);
  });

  it('names the service agent-connector unless OTEL_SERVICE_NAME says otherwise; takes the protocols the SDK has', () => {
    expect(readConfig({}).telemetry.serviceName).toBe('agent-connector');
    expect(readConfig({ OTEL_SERVICE_NAME: 'connect-eu' }).telemetry.serviceName).toBe('connect-eu');
    for (const protocol of ['grpc', 'http/json', 'http/protobuf']) expect(readConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: protocol }).telemetry.enabled).toBe(false);
  });

  const refused: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['an endpoint without a scheme', { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/],
    ['a non-http endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://collector/v1/traces' }, /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be/],
    ['a malformed metrics endpoint', { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://' }, /^OTEL_EXPORTER_OTLP_METRICS_ENDPOINT must be/],
    ['an exporter the SDK does not have', { OTEL_TRACES_EXPORTER: 'jaeger' }, /^OTEL_TRACES_EXPORTER must be a comma-separated list of otlp, zipkin, console, none \(not supported: "jaeger"\)/],
    ['a traces exporter for metrics', { OTEL_METRICS_EXPORTER: 'otlp,zipkin' }, /^OTEL_METRICS_EXPORTER must be .*"zipkin"/],
    ['none beside an exporter', { OTEL_TRACES_EXPORTER: 'none,otlp' }, /^OTEL_TRACES_EXPORTER: none cannot be combined/],
    ['an unknown protocol', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http' }, /^OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json, grpc/],
    ['a disabled flag that is not true or false', { OTEL_SDK_DISABLED: '1' }, /^OTEL_SDK_DISABLED must be true or false/],
  ];
  it.each(refused)('refuses %s, naming the variable', (_name, env, message) => {
    expect(configError(env).message).toMatch(message);
  });

  it('checks a bad value even while telemetry is off, and never shows the credentials of an endpoint URL', () => {
    expect(configError({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector' }).message).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT/);
    const error = configError({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpcs://user:s3cret@collector:4317' });
    expect(error.message).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(error.message).not.toContain('s3cret');
  });

  // A password holding `@` or `/` (pasted unencoded), or a URL without a scheme, showed part or all of it.
  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'ftp://user:p@ssw0rd@collector:4318', '"ftp://***@collector:4318"'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'otlp://user:pa/ssw0rd@collector:4318', '"otlp://***@collector:4318"'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'user:passw0rd@collector:4318', '"***@collector:4318"'],
    ['REDIS_URL', 'redis://default:p@ssw0rd@cache.internal:6379 ', '"redis://***@cache.internal:6379 "'],
    ['REDIS_URL', 'http://default:passw0rd@cache.internal:6379', '"http://***@cache.internal:6379"'],
  ])('refuses %s %s without showing any of its password', (name, value, shownAs) => {
    const error = configError({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^${name}`));
    expect(error.message).toContain(`(got ${shownAs})`);
    expect(error.message).not.toMatch(/ssw0rd|passw0rd/);
  });
});

describe('readClientConfig: the CLI\'s service URL and credentials', () => {
  const CREDENTIALS = { AGENT_CONNECTOR_CLIENT_ID: 'ac_env', AGENT_CONNECTOR_CLIENT_SECRET: 'acs_env' };

  function clientError(env: NodeJS.ProcessEnv, flags: ClientFlags = {}): ConfigError {
    try {
      readClientConfig(env, flags);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error('readClientConfig accepted the environment');
  }

  it('reads the variables, with the local service as the default URL and no trailing slash', () => {
    expect(readClientConfig(CREDENTIALS)).toEqual({ url: 'http://127.0.0.1:3000', urlSource: 'the default', clientId: 'ac_env', clientSecret: 'acs_env' });
    expect(readClientConfig({ ...CREDENTIALS, AGENT_CONNECTOR_URL: 'https://connect.example.com/' }).url).toBe('https://connect.example.com');
  });

  it('takes each flag over its variable, and an empty flag as not given', () => {
    const env = { ...CREDENTIALS, AGENT_CONNECTOR_URL: 'http://env.example:3000' };
    expect(readClientConfig(env, { envUrl: 'https://flag.example', clientId: 'ac_flag', clientSecret: 'acs_flag' })).toEqual({ url: 'https://flag.example', urlSource: '--env-url', clientId: 'ac_flag', clientSecret: 'acs_flag' });
    expect(readClientConfig(env, { clientSecret: 'acs_flag' })).toEqual({ url: 'http://env.example:3000', urlSource: 'AGENT_CONNECTOR_URL', clientId: 'ac_env', clientSecret: 'acs_flag' });
    expect(readClientConfig(env, { envUrl: '', clientId: '' })).toEqual({ url: 'http://env.example:3000', urlSource: 'AGENT_CONNECTOR_URL', clientId: 'ac_env', clientSecret: 'acs_env' });
    expect(readClientId({ AGENT_CONNECTOR_CLIENT_ID: 'ac_env' })).toBe('ac_env');
    expect(readClientId({ AGENT_CONNECTOR_CLIENT_ID: 'ac_env' }, 'ac_flag')).toBe('ac_flag');
    expect(readClientId({})).toBeUndefined();
  });

  it('refuses a URL that is not http(s), naming the variable, or the flag when the flag gave it', () => {
    expect(clientError({ ...CREDENTIALS, AGENT_CONNECTOR_URL: 'localhost:3000' }).message).toMatch(/^AGENT_CONNECTOR_URL must be the service's http:\/\/ or https:\/\/ URL/);
    expect(clientError({ ...CREDENTIALS, AGENT_CONNECTOR_URL: 'ftp://host' }).message).toMatch(/^AGENT_CONNECTOR_URL must be/);
    expect(clientError({ ...CREDENTIALS, AGENT_CONNECTOR_URL: 'http://fine:3000' }, { envUrl: 'nope' }).message).toMatch(/^--env-url must be/);
    expect(clientError({ ...CREDENTIALS, AGENT_CONNECTOR_URL: 'ws://admin:pw@host' }).message).not.toContain('pw@');
  });

  it('refuses missing credentials, naming each missing variable', () => {
    const noSecret = clientError({ AGENT_CONNECTOR_CLIENT_ID: 'ac_env' }).message;
    expect(noSecret).toContain('AGENT_CONNECTOR_CLIENT_SECRET');
    expect(noSecret).not.toContain('AGENT_CONNECTOR_CLIENT_ID');
    const none = clientError({}).message;
    expect(none).toContain('AGENT_CONNECTOR_CLIENT_ID');
    expect(none).toContain('AGENT_CONNECTOR_CLIENT_SECRET');
    expect(clientError({ AGENT_CONNECTOR_CLIENT_ID: 'ac_env', AGENT_CONNECTOR_CLIENT_SECRET: '' }).message).toContain('AGENT_CONNECTOR_CLIENT_SECRET');
    // A flag fills what the environment leaves out.
    expect(readClientConfig({ AGENT_CONNECTOR_CLIENT_ID: 'ac_env' }, { clientSecret: 'acs_flag' }).clientSecret).toBe('acs_flag');
  });
});

describe('AGENT_CONNECTOR_TOKEN_SIGNING_KEY: one key, or several separated by commas', () => {
  const hexKey = randomBytes(32).toString('hex');
  const b64Key = randomBytes(48).toString('base64');

  it('keeps the single-key form, and reads several keys in order', () => {
    expect(loadSigningKeys('/nonexistent', hexKey)).toEqual([new Uint8Array(Buffer.from(hexKey, 'hex'))]);
    expect(loadSigningKeys('/nonexistent', ` ${hexKey} , ${b64Key},`)).toEqual([new Uint8Array(Buffer.from(hexKey, 'hex')), new Uint8Array(Buffer.from(b64Key, 'base64'))]);
  });

  it('names the variable and the position of a bad entry, never the key', () => {
    const error = (value: string) => {
      try {
        loadSigningKeys('/nonexistent', value);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    const short = 'ab'.repeat(16 - 1);
    expect(error(`${hexKey},${short}`)).toMatch(/^AGENT_CONNECTOR_TOKEN_SIGNING_KEY \(key 2\) must hold at least 32 bytes/);
    expect(error(`${hexKey},${short}`)).not.toContain(short);
    expect(error(`not a key!,${hexKey}`)).toMatch(/^AGENT_CONNECTOR_TOKEN_SIGNING_KEY \(key 1\) must be hex or base64/);
    expect(error(`${hexKey},not a key!`)).not.toContain(hexKey);
    expect(error(short)).toMatch(/^AGENT_CONNECTOR_TOKEN_SIGNING_KEY must hold at least 32 bytes/);
    expect(error(' , ')).toMatch(/^AGENT_CONNECTOR_TOKEN_SIGNING_KEY holds no key/);
  });
});
