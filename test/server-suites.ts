/**
 * The one rule for tests that need a server named by an environment variable (PostgreSQL, Redis): run against it when
 * the variable is set; otherwise fail under the REQUIRE switch CI sets, or be reported skipped. Kept apart from the
 * store and service harnesses, which the benchmarks import too, so that only test files load vitest.
 */
import { describe, expect, it } from 'vitest';

/**
 * With `url` (e.g. `DATABASE_URL`) set, `register(value)` registers the tests inside a describe named `title`.
 * Without it, when `required` (e.g. `AGENT_CONNECTOR_REQUIRE_POSTGRES`) is `1`, as CI sets it, that describe holds one
 * test that fails naming the missing variable; otherwise the describe is skipped, its title saying which variable to
 * set, so a run shows what it left out.
 */
function serverSuite(url: string, required: string, title: string, register: (value: string) => void): void {
  const value = process.env[url];
  if (value) {
    describe(title, () => register(value));
  } else if (process.env[required] === '1') {
    describe(title, () => {
      it(`needs ${url}`, () => expect.fail(`${required}=1 but ${url} is not set: "${title}" cannot run`));
    });
  } else {
    describe.skip(`${title} (set ${url} to run)`, () => {
      it(`needs ${url}`, () => {});
    });
  }
}

/** Tests on PostgreSQL: run against `DATABASE_URL`, a failure without it under `AGENT_CONNECTOR_REQUIRE_POSTGRES=1`, else skipped. */
export function postgresSuite(title: string, register: (databaseUrl: string) => void): void {
  serverSuite('DATABASE_URL', 'AGENT_CONNECTOR_REQUIRE_POSTGRES', title, register);
}

/** Tests on Redis: run against `REDIS_URL`, a failure without it under `AGENT_CONNECTOR_REQUIRE_REDIS=1`, else skipped. */
export function redisSuite(title: string, register: (redisUrl: string) => void): void {
  serverSuite('REDIS_URL', 'AGENT_CONNECTOR_REQUIRE_REDIS', title, register);
}
