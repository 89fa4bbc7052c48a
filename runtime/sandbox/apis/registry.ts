import type { ConnectorName } from '../../types.js';
import type { ApiModule } from '../types.js';
import { createCalendarApi } from './calendar/index.js';
import { createCrmApi } from './crm/index.js';
import { createStubApi } from './stub.js';
import { createWorkspaceApi } from './workspace/index.js';

/**
 * Every fake API, one module per connector, fresh state per sandbox.
 * Modules not written yet are stubs that answer 501 (see `stub.ts`).
 */
export function createApiModules(): Map<ConnectorName, ApiModule> {
  const modules: ApiModule[] = [
    createWorkspaceApi(),
    createCalendarApi(),
    createCrmApi(),
    createStubApi('sheets'),
    createStubApi('docs'),
  ];
  return new Map(modules.map((m) => [m.service, m]));
}
