/**
 * What the three Google fakes share around their routes: per-user state created on first sight, and the turning of a
 * thrown {@link GoogleApiError} (or an error the core asks for) into a response in the module's error shape.
 */
import type { GoogleErrorShape } from '../../dialects/google.js';
import type { ApiModule, ApiRequest, ApiResponse } from '../../types.js';
import { GoogleApiError, coreError, legacyErrorResponse, modernErrorResponse } from './errors.js';

export interface GoogleApiSpec<State> {
  service: 'calendar' | 'sheets' | 'docs';
  /** The API's service name, as Google's `ErrorInfo.metadata.service` carries it (e.g. `sheets.googleapis.com`). */
  serviceName: string;
  /** Calendar answers in the legacy shape, Sheets and Docs in the modern one. */
  errorShape: GoogleErrorShape;
  /** The user's state (with any sample data) the first time the user is seen. */
  seed(user: string, now: number): State;
  /**
   * Answers a request, throwing {@link GoogleApiError} for expected failures. `others` are the other users' states,
   * for what exists but is not the caller's (a file not shared with them).
   */
  route(req: ApiRequest, state: State, others: () => Iterable<State>): ApiResponse;
}

/** An {@link ApiModule} for a Google fake. */
export function googleApiModule<State>(spec: GoogleApiSpec<State>): ApiModule {
  const users = new Map<string, State>();
  const stateOf = (user: string, now: number): State => {
    let s = users.get(user);
    if (s === undefined) {
      s = spec.seed(user, now);
      users.set(user, s);
    }
    return s;
  };
  const render = spec.errorShape === 'legacy' ? legacyErrorResponse : modernErrorResponse;
  return {
    service: spec.service,
    dialect: 'google',
    users: users as Map<string, unknown>,
    seedUser(user, now) {
      stateOf(user, now);
    },
    handle(req) {
      try {
        const others = function* (): Iterable<State> {
          for (const [user, state] of users) if (user !== req.user) yield state;
        };
        return spec.route(req, stateOf(req.user, req.now), others);
      } catch (err) {
        if (err instanceof GoogleApiError) return err.unmodelled ? { ...render(err), unmodelled: true } : render(err);
        throw err;
      }
    },
    errorResponse(status, message, extra) {
      return render(coreError(spec.serviceName, status, message, extra));
    },
  };
}
