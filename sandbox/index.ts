/** The sandbox's public surface: start it, and the types of its control and layout. */
export { startSandbox, sandboxEndpoints } from './start.js';
export { DEFAULT_SANDBOX_USER } from './oauth/authorize.js';
export type * from './types.js';
export { consent } from './consent-driver.js';
export type { ConsentOptions, ConsentResult } from './consent-driver.js';
