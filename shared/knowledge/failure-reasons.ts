import { IncompleteResponseError } from '../security/guarded-fetch';
import type { DocumentKind } from './document-kind';

/**
 * The `failure_reason`s of documents whose URL or reader failed, in fixed words. A network
 * error's own message names addresses and ports ("connect ECONNREFUSED 10.1.2.3:8080", a TLS
 * error naming a host), and a reader's may name files on our side: echoed to whoever saved the
 * URL, they would map our network and our machines. The error itself goes to our log only.
 */

/** TLS certificate failures by Node's (OpenSSL's) code: expired, self-signed, unknown issuer, wrong name. */
const CERTIFICATE_CODE = /CERT|SELF_SIGNED|UNABLE_TO_(GET_ISSUER|VERIFY)|HOSTNAME_MISMATCH|INVALID_CA/;

/** Why fetching a URL failed, from the error's `code` only (never its message). */
export function fetchFailureReason(error: unknown): string {
  if (error instanceof IncompleteResponseError) return 'the connection was closed before the document arrived';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'the URL could not be fetched';
  if (code === 'ECONNREFUSED') return 'the server refused the connection';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name could not be resolved';
  if (code === 'ECONNRESET') return 'the connection was closed before the document arrived';
  if (CERTIFICATE_CODE.test(code)) return "the server's TLS certificate could not be verified";
  return 'the URL could not be fetched';
}

const NOUNS = { html: 'page', pdf: 'PDF', text: 'document' } as const;

/** The word a reason uses for a document of a kind ("the page took longer than 20 s to read"). */
export function documentNoun(kind: DocumentKind): string {
  return NOUNS[kind];
}

/** Why a reader threw on a document (PDF.js on a damaged or locked PDF, say), in fixed words. */
export function unreadableReason(kind: DocumentKind, message: string): string {
  if (kind === 'pdf' && /password/i.test(message)) return 'the PDF is protected by a password';
  if (kind === 'pdf') return 'the PDF could not be read (it may be damaged, or not a PDF)';
  return `the ${documentNoun(kind)} could not be read`;
}

/**
 * The `failure_reason` of a document whose ingestion failed on our side (the embeddings API,
 * DynamoDB) on every try, until its queue gave it up: the business can only add it again.
 */
export const GAVE_UP_REASON = 'the document could not be processed (our service failed on every try); delete it and add it again';
