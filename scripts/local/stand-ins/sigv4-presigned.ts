import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Checks an S3 presigned URL (SigV4 in the query string) as S3 does: the algorithm, the
 * credential's access key, the signature recomputed over the canonical request (method, path as
 * sent, every query parameter but the signature, the signed headers, `UNSIGNED-PAYLOAD`), and the
 * expiry (`X-Amz-Date` + `X-Amz-Expires`, at most 7 days). A refusal carries S3's status, error
 * code and message. AWS "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)".
 */

/** S3's answer to a link it refuses. */
export interface PresignRefusal {
  status: 400 | 403;
  code: 'AccessDenied' | 'AuthorizationQueryParametersError' | 'InvalidAccessKeyId' | 'SignatureDoesNotMatch';
  message: string;
}

/** The request as it arrived. */
export interface PresignedRequest {
  method: string;
  /** Path and query exactly as sent (`req.url`). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

const MAX_EXPIRES_S = 604_800;

/** RFC 3986 encoding, as SigV4 wants it. */
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/** `20261129T040000Z` → epoch ms, or NaN. */
function amzDateMs(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : Number.NaN;
}

/** Undefined when the link is good; else what S3 answers. `secrets` maps access key id → secret key. */
export function checkPresigned(request: PresignedRequest, secrets: ReadonlyMap<string, string>, nowMs: number): PresignRefusal | undefined {
  const queryAt = request.url.indexOf('?');
  const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const params = [...new URLSearchParams(queryAt < 0 ? '' : request.url.slice(queryAt + 1))];
  const get = (name: string) => params.find(([key]) => key === name)?.[1];
  const signature = get('X-Amz-Signature');
  const credential = get('X-Amz-Credential');
  const date = get('X-Amz-Date') ?? '';
  const expires = Number(get('X-Amz-Expires'));
  const signedHeaders = get('X-Amz-SignedHeaders');
  const malformed = (message: string): PresignRefusal => ({ status: 400, code: 'AuthorizationQueryParametersError', message });
  if (get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return malformed('X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  if (!signature || !credential || !signedHeaders || Number.isNaN(amzDateMs(date)))
    return malformed(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  if (!Number.isInteger(expires) || expires < 1 || expires > MAX_EXPIRES_S)
    return malformed('X-Amz-Expires must be less than a week (in seconds) that is 604800');
  const [accessKey, ...scopeParts] = credential.split('/');
  const secret = secrets.get(accessKey ?? '');
  if (secret === undefined)
    return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  if (nowMs > amzDateMs(date) + expires * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
  const canonicalQuery = params
    .filter(([key]) => key !== 'X-Amz-Signature')
    .map(([key, value]) => [encode(key), encode(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const headerLines = signedHeaders
    .split(';')
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payload = get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
  const canonical = [request.method, path, canonicalQuery, headerLines, signedHeaders, payload].join('\n');
  const scope = scopeParts.join('/');
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n');
  const key = scopeParts.reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${secret}`);
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    };
  return undefined;
}
