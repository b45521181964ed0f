/**
 * A document reader that misbehaves on purpose, for the parse worker to run instead of the real
 * one (`new WorkerDocumentParser({ readerUrl: HOSTILE_READER })`): a document whose text starts
 * with one of the {@link HOSTILE} markers does what it says; any other is read for real. It stands
 * for a page or PDF that makes a parser spin or allocate without end.
 */
import { readDocument as realReadDocument, type DocumentSource, type ParsedDocument } from '../../shared/knowledge/extract';

/** This module's URL, to hand to the worker. */
export const HOSTILE_READER = new URL(import.meta.url);

/** What a hostile document does, by the marker its text starts with. */
export const HOSTILE = {
  /** Spins forever without yielding: only terminate() stops it. */
  loop: 'HOSTILE:LOOP',
  /** Allocates JS objects until V8's heap limit stops the worker. */
  heap: 'HOSTILE:HEAP',
  /** Allocates buffers outside the heap, which only the memory watch stops. */
  buffers: 'HOSTILE:BUFFERS',
  /** Ends its own thread (`process.exit` in a worker). */
  exit: 'HOSTILE:EXIT',
  /** Throws outside the request, where the worker cannot answer it. */
  uncaught: 'HOSTILE:UNCAUGHT',
} as const;

/** The worker's reader: a marked document misbehaves, any other is read for real. */
export async function readDocument(source: DocumentSource): Promise<ParsedDocument> {
  const head = 'text' in source ? source.text.slice(0, 40) : Buffer.from(source.bytes.subarray(0, 40)).toString('latin1');
  const marker = Object.values(HOSTILE).find((value) => head.includes(value));
  const kept: unknown[] = [];
  switch (marker) {
    case HOSTILE.loop:
      for (;;);
    case HOSTILE.heap:
      for (let i = 0; ; i++) kept.push({ i, text: `row ${i}` });
    case HOSTILE.buffers:
      for (;;) kept.push(new Uint8Array(8 * 1024 * 1024).fill(1));
    case HOSTILE.exit:
      return process.exit(3);
    case HOSTILE.uncaught:
      setTimeout(() => {
        throw new Error('hostile reader: thrown from a timer');
      });
      return new Promise<never>(() => undefined);
    default:
      return realReadDocument(source);
  }
}
