import type { ConnectorName } from '../../types.js';
import { googleError } from '../dialects/google.js';
import type { ApiModule } from '../types.js';

/**
 * Stands in for a fake API that is not written yet: every call answers 501 in Google's dialect, so auth, faults and
 * recording can be exercised for the service while its module is built.
 */
export function createStubApi(service: ConnectorName): ApiModule {
  return {
    service,
    dialect: 'google',
    seedUser() {},
    handle: () => googleError(501, `The sandbox has no ${service} API yet.`, { reason: 'notImplemented' }),
    errorResponse: (status, message, extra) => googleError(status, message, extra),
  };
}
