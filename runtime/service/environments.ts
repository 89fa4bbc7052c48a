/**
 * Environments (tenants) and their application credentials.
 *
 * A client secret is returned once, at creation, and stored only as a salted hash; nothing can show it again.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret, verifySecret } from '../crypto/index.js';
import { isConnectorError } from '../errors.js';
import type { Store } from '../store/types.js';

export interface AppCredentials {
  environmentId: string;
  clientId: string;
  /** Present only when this call generated the secret. */
  clientSecret?: string;
}

export function newClientId(): string {
  return `ac_${randomBytes(12).toString('hex')}`;
}

export function newClientSecret(): string {
  return `acs_${randomBytes(32).toString('base64url')}`;
}

export function newEnvironmentId(): string {
  return `env_${randomBytes(10).toString('hex')}`;
}

/** Creates an environment with one application client and returns its credentials (the secret, this once). */
export async function createEnvironment(store: Store, input: { name: string; id?: string }): Promise<Required<AppCredentials>> {
  const env = await store.createEnvironment({ id: input.id ?? newEnvironmentId(), name: input.name });
  const clientId = newClientId();
  const clientSecret = newClientSecret();
  await store.createAppClient({ clientId, environmentId: env.id, secretHash: await hashSecret(clientSecret) });
  return { environmentId: env.id, clientId, clientSecret };
}

/** A start's client exists but is not the one it was given: another secret, or (`environments`) another environment. */
export class CredentialMismatchError extends Error {
  constructor(clientId: string, environments?: { expected: string; actual: string }) {
    super(
      environments === undefined
        ? `The client ${clientId} already exists with a different secret; unset AGENT_CONNECTOR_CLIENT_SECRET to keep the stored one, or use a new client id`
        : `The client ${clientId} belongs to environment ${environments.actual}, not to ${environments.expected}, which this start bootstraps; ` +
            'a client made by `agent-connector environments create` works without being named here: set AGENT_CONNECTOR_CLIENT_ID to a client of ' +
            `${environments.expected}, or to a new id with AGENT_CONNECTOR_CLIENT_SECRET`,
    );
    this.name = 'CredentialMismatchError';
  }
}

/** What {@link ensureAppClient} throws when it may not create the client and the client is not in the store. */
export class AppClientMissingError extends Error {
  constructor(readonly clientId: string) {
    super(`There is no application client ${clientId} in the store`);
    this.name = 'AppClientMissingError';
  }
}

/** What a start's application client is: the environment, the client id, its secret when given, whether it may be created. */
export interface AppClientInput {
  environmentId: string;
  environmentName: string;
  clientId: string;
  clientSecret?: string;
  create?: boolean;
}

/**
 * Makes sure `environmentId` exists and has the client `clientId`: {@link prepareAppClient}, then what it returns.
 */
export async function ensureAppClient(store: Store, input: AppClientInput): Promise<AppCredentials> {
  return (await prepareAppClient(store, input))();
}

/**
 * The checks of {@link ensureAppClient}, which write nothing, and what completes it. With a given secret, an existing
 * client must match it; without one, a new client gets a generated secret (returned by the completion) and an
 * existing one is left as it is. With `create: false` (a production start not given both the id and the secret) only
 * an existing client is taken: a missing one throws {@link AppClientMissingError}, so no secret is ever generated.
 * Every refusal is thrown here, before anything is written: a start refuses before it listens, and completes after.
 * Instances that start together on one database race in the completion: a `conflict` on either insert means another
 * instance created the row first, and its row is then checked as an existing one.
 */
export async function prepareAppClient(store: Store, input: AppClientInput): Promise<() => Promise<AppCredentials>> {
  const existing = await store.getAppClient(input.clientId);
  if (existing) {
    const credentials = await checkExisting(existing, input);
    return async () => credentials;
  }
  if (input.create === false) throw new AppClientMissingError(input.clientId);
  return () => createAppClient(store, input);
}

async function createAppClient(store: Store, input: AppClientInput): Promise<AppCredentials> {
  if (!(await store.getEnvironment(input.environmentId))) {
    try {
      await store.createEnvironment({ id: input.environmentId, name: input.environmentName });
    } catch (error) {
      if (!isConflict(error) || !(await store.getEnvironment(input.environmentId))) throw error;
    }
  }
  const generated = input.clientSecret === undefined ? newClientSecret() : undefined;
  const secret = input.clientSecret ?? (generated as string);
  try {
    await store.createAppClient({ clientId: input.clientId, environmentId: input.environmentId, secretHash: await hashSecret(secret) });
  } catch (error) {
    const created = isConflict(error) ? await store.getAppClient(input.clientId) : null;
    if (!created) throw error;
    return checkExisting(created, input);
  }
  return generated ? { environmentId: input.environmentId, clientId: input.clientId, clientSecret: generated } : { environmentId: input.environmentId, clientId: input.clientId };
}

function isConflict(error: unknown): boolean {
  return isConnectorError(error) && error.code === 'conflict';
}

/** An existing client must be in the environment and, when a secret is given, match it. */
async function checkExisting(
  existing: { environmentId: string; secretHash: string },
  input: { environmentId: string; clientId: string; clientSecret?: string },
): Promise<AppCredentials> {
  if (existing.environmentId !== input.environmentId) {
    throw new CredentialMismatchError(input.clientId, { expected: input.environmentId, actual: existing.environmentId });
  }
  if (input.clientSecret !== undefined && !(await verifySecret(input.clientSecret, existing.secretHash))) {
    throw new CredentialMismatchError(input.clientId);
  }
  return { environmentId: input.environmentId, clientId: input.clientId };
}
