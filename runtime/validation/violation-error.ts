/**
 * The error for one refused field: `details.violations` names it by JSON pointer, as every input error does, so a
 * caller (or an agent) can tell which part of its request to change.
 */
import { ConnectorError, type ErrorCode } from '../errors.js';
import type { Violation } from '../types.js';

export function violationError(code: ErrorCode, message: string, violation: Violation): ConnectorError {
  return new ConnectorError(code, message, { details: { violations: [violation] } });
}
