import type { ConnectorName } from '../../runtime/types.js';
import type { ApiModule } from '../types.js';
import { createCalendarApi } from './calendar/index.js';
import { createCrmApi } from './crm/index.js';
import { createDocsApi } from './docs/index.js';
import { createSheetsApi } from './sheets/index.js';
import { createWorkspaceApi } from './workspace/index.js';

/**
 * Every fake API, one module per connector, fresh state per sandbox.
 */
export function createApiModules(): Map<ConnectorName, ApiModule> {
  const modules: ApiModule[] = [
    createWorkspaceApi(),
    createCalendarApi(),
    createCrmApi(),
    createSheetsApi(),
    createDocsApi(),
  ];
  return new Map(modules.map((m) => [m.service, m]));
}
