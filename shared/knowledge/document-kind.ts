/**
 * What kind of document a fetched body is: decided on the ingestion thread, which never loads the
 * parsers themselves (extract.ts, in the parse worker's bundle only).
 */

/** The kinds of document a URL may hold. */
export type DocumentKind = 'html' | 'pdf' | 'text';

/** The fetched body was not a kind we read. */
export class UnsupportedDocumentError extends Error {}

/** What a fetched body is, by its Content-Type, else by its first bytes. */
export function documentKind(contentType: string, bytes: Uint8Array): DocumentKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf' || Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-') return 'pdf';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/plain' || type === 'text/markdown' || type === '') {
    const head = Buffer.from(bytes.subarray(0, 512)).toString('utf8').trimStart().toLowerCase();
    return head.startsWith('<!doctype html') || head.startsWith('<html') ? 'html' : 'text';
  }
  throw new UnsupportedDocumentError(`content type ${type.slice(0, 80)} is not HTML, PDF or plain text`);
}
