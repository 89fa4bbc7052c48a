/**
 * Content decoding for upstream responses. The client asks for `gzip, deflate, br` (Google's APIs compress large
 * list responses when asked) and hands callers the decoded body, so the size cap applies to what is decoded too: a
 * small compressed body that inflates past it is refused, not buffered.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.4.1
 */
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ConnectorError } from '../errors.js';

/** What the client sends as Accept-Encoding: the codings {@link decodeBody} reads. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

type Inflate = (buf: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>;

const gunzip = promisify(zlib.gunzip) as Inflate;
const inflate = promisify(zlib.inflate) as Inflate;
const inflateRaw = promisify(zlib.inflateRaw) as Inflate;
const brotli = promisify(zlib.brotliDecompress) as Inflate;

function inflaterFor(coding: string, raw: Buffer): Inflate | null | undefined {
  switch (coding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return gunzip;
    case 'deflate':
      // RFC 9110 means the zlib format, but some servers send raw deflate; the zlib header's first byte says which.
      return (raw[0]! & 0x0f) === 8 ? inflate : inflateRaw;
    case 'br':
      return brotli;
    default:
      return undefined;
  }
}

/**
 * Decodes `raw` by its Content-Encoding (one coding; `identity` or none returns it as is) and removes the headers
 * that described the encoded bytes. Throws `tooLarge()` when the decoded body passes `maxBytes`, and
 * `upstream_error` for a coding that was not asked for or bytes that do not decode.
 */
export async function decodeBody(raw: Buffer, headers: IncomingHttpHeaders, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const header = headers['content-encoding'];
  if (header === undefined) return raw;
  const coding = String(header).trim().toLowerCase();
  const inflater = inflaterFor(coding, raw);
  if (inflater === undefined) {
    throw new ConnectorError('upstream_error', `The upstream API answered with a content encoding that was not asked for (${coding.slice(0, 40)}).`, {
      details: { status: null, code: 'unsupported_content_encoding' },
    });
  }
  delete headers['content-encoding'];
  if (inflater === null || raw.length === 0) return raw;
  delete headers['content-length'];
  try {
    return await inflater(raw, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new ConnectorError('upstream_error', `The upstream API's ${coding} response body could not be decoded.`, {
      details: { status: null, code: 'content_decoding_failed' },
    });
  }
}
