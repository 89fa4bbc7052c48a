import type { FastifyServerOptions } from 'fastify';
import { describe, expectTypeOf, it } from 'vitest';
import type { ServiceOptions } from '../../runtime/service/build-service.js';
import type { ServiceConfig } from '../../runtime/service/config.js';

describe('ServiceOptions.trustProxy', () => {
  it('takes every form fastify takes and the config\'s, so start.ts passes it without a cast', () => {
    expectTypeOf<FastifyServerOptions['trustProxy']>().toExtend<ServiceOptions['trustProxy']>();
    expectTypeOf<ServiceConfig['trustProxy']>().toExtend<ServiceOptions['trustProxy']>();
    expectTypeOf<string[]>().toExtend<ServiceOptions['trustProxy']>();
    expectTypeOf<'10.0.0.0/8,::1'>().toExtend<ServiceOptions['trustProxy']>();
  });
});
