/**
 * Conference data: Calendar creates a Meet conference only when the request carries `conferenceDataVersion=1`
 * and the event a `conferenceData.createRequest`; otherwise the create request is silently ignored.
 * @see https://developers.google.com/calendar/api/guides/create-events#conferencing
 */
import { GoogleApiError } from '../google-common/errors.js';
import { meetCode } from '../google-common/ids.js';
import { isRecord } from '../google-common/request.js';

const CREATABLE = new Set(['hangoutsMeet']);
const LEGACY = new Set(['eventHangout', 'eventNamedHangout']);

/**
 * The conference data to store after a write. `previous` is what the event had; `supplied` what the body sent.
 * With version 0 the stored data never changes.
 */
export function resolveConference(
  version: number,
  supplied: unknown,
  previous: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (version !== 1 || supplied === undefined) return previous;
  if (supplied === null) return undefined;
  if (!isRecord(supplied)) throw new GoogleApiError(400, 'Invalid conference data.', { reason: 'invalid' });
  const create = supplied.createRequest;
  if (create === undefined) return supplied;
  if (!isRecord(create) || typeof create.requestId !== 'string' || create.requestId.length === 0) {
    throw new GoogleApiError(400, 'Invalid conference create request.', { reason: 'invalid' });
  }
  const prevCreate = previous?.createRequest;
  // Re-sending the same request id is a no-op, as Google treats request ids as idempotency keys.
  if (isRecord(prevCreate) && prevCreate.requestId === create.requestId) return previous;
  const key = isRecord(create.conferenceSolutionKey) ? create.conferenceSolutionKey.type : 'hangoutsMeet';
  if (typeof key !== 'string' || LEGACY.has(key)) {
    throw new GoogleApiError(400, 'Invalid conference type value.', { reason: 'invalid' });
  }
  if (!CREATABLE.has(key)) {
    // An add-on conference needs the add-on's own backend, which the sandbox does not have.
    return {
      createRequest: { requestId: create.requestId, conferenceSolutionKey: { type: key }, status: { statusCode: 'failure' } },
    };
  }
  const code = meetCode();
  return {
    createRequest: {
      requestId: create.requestId,
      conferenceSolutionKey: { type: 'hangoutsMeet' },
      status: { statusCode: 'success' },
    },
    entryPoints: [
      { entryPointType: 'video', uri: `https://meet.google.com/${code}`, label: `meet.google.com/${code}` },
      { entryPointType: 'more', uri: `https://tel.meet/${code}?pin=1234567890`, pin: '1234567890' },
    ],
    conferenceSolution: {
      key: { type: 'hangoutsMeet' },
      name: 'Google Meet',
      iconUri: 'https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png',
    },
    conferenceId: code,
  };
}

/** `hangoutLink` mirrors the Meet video entry point. */
export function hangoutLinkOf(conference: Record<string, unknown> | undefined): string | undefined {
  const points = conference?.entryPoints;
  if (!Array.isArray(points)) return undefined;
  const video = points.find((p) => isRecord(p) && p.entryPointType === 'video' && typeof p.uri === 'string');
  const uri = isRecord(video) ? (video.uri as string) : undefined;
  return uri?.startsWith('https://meet.google.com/') ? uri : undefined;
}
