import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkPresigned } from './sigv4-presigned';

/**
 * The local S3's front door for links: fauxqs serves S3 but checks no signature, so a tampered
 * recording link would still download. This gate sits in front of it and checks every
 * query-signed request (a presigned URL) as S3 does (sigv4-presigned.ts), answering S3's XML
 * error and 403 (or 400) when it fails; a good link is passed to fauxqs unchanged. A request
 * signed in its `Authorization` header (the SDK's own calls) is passed through, and one with no
 * signature at all is refused `AccessDenied`, as a private bucket refuses it.
 */

/** A running gate. */
export interface PresignedS3Gate {
  /** `http://127.0.0.1:<port>`: the S3 endpoint to presign links against. */
  endpoint: string;
  stop(): Promise<void>;
}

/** The local stack's S3 credentials (fauxqs takes any; links are signed and checked with these). */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml' }).end(body);
}

/** Starts the gate on a free loopback port in front of `upstream` (fauxqs's endpoint). */
export async function startPresignedS3Gate(
  upstream: string,
  options: { now?: () => number; secrets?: ReadonlyMap<string, string> } = {},
): Promise<PresignedS3Gate> {
  const target = new URL(upstream);
  const secrets = options.secrets ?? new Map([[LOCAL_S3_CREDENTIALS.accessKeyId, LOCAL_S3_CREDENTIALS.secretAccessKey]]);
  const now = options.now ?? Date.now;
  const pass = (req: IncomingMessage, res: ServerResponse) => {
    const upstreamRequest = forward(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstreamRequest.on('error', () =>
      res.headersSent ? res.destroy() : refuse(res, 503, 'ServiceUnavailable', 'fauxqs is not answering'),
    );
    req.pipe(upstreamRequest);
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (
      new URL(url, 'http://gate').searchParams.has('X-Amz-Signature') ||
      new URL(url, 'http://gate').searchParams.has('X-Amz-Algorithm')
    ) {
      const refusal = checkPresigned({ method: req.method ?? 'GET', url, headers: req.headers }, secrets, now());
      if (refusal) return refuse(res, refusal.status, refusal.code, refusal.message);
      return pass(req, res);
    }
    if (!req.headers.authorization) return refuse(res, 403, 'AccessDenied', 'Access Denied');
    pass(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
