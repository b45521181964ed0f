import { describe, expect, it } from 'vitest';
import { fetchFailureReason, unreadableReason } from '../../../shared/knowledge/failure-reasons';
import { IncompleteResponseError } from '../../../shared/security/guarded-fetch';

/** A network error as Node makes them: a message naming the address, and a `code`. */
const netError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('fetchFailureReason', () => {
  it.each([
    [netError('ECONNREFUSED', 'connect ECONNREFUSED 10.1.2.3:8080'), 'the server refused the connection'],
    [netError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal'), 'the host name could not be resolved'],
    [netError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db.internal'), 'the host name could not be resolved'],
    [netError('ECONNRESET', 'socket hang up'), 'the connection was closed before the document arrived'],
    [new IncompleteResponseError(), 'the connection was closed before the document arrived'],
    [netError('CERT_HAS_EXPIRED', 'certificate has expired'), "the server's TLS certificate could not be verified"],
    [netError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), "the server's TLS certificate could not be verified"],
    [netError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify'), "the server's TLS certificate could not be verified"],
    [
      netError('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: Host: a.internal"),
      "the server's TLS certificate could not be verified",
    ],
    [netError('EHOSTUNREACH', 'connect EHOSTUNREACH 10.9.9.9:443'), 'the URL could not be fetched'],
    [new Error('something at /var/task/index.mjs'), 'the URL could not be fetched'],
    ['a string', 'the URL could not be fetched'],
  ])('%s → %j', (error, reason) => {
    expect(fetchFailureReason(error)).toBe(reason);
  });
});

describe('unreadableReason', () => {
  it.each([
    ['pdf', 'No password given', 'the PDF is protected by a password'],
    [
      'pdf',
      "Setting up fake worker failed: Cannot find module '/var/task/pdf.worker.mjs'",
      'the PDF could not be read (it may be damaged, or not a PDF)',
    ],
    ['html', 'Cannot read properties of undefined at /var/task/index.mjs:1:2', 'the page could not be read'],
    ['text', 'boom', 'the document could not be read'],
  ] as const)('a %s whose reader threw %j → %j', (kind, message, reason) => {
    expect(unreadableReason(kind, message)).toBe(reason);
  });
});
