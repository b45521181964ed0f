import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument, type DocumentSource } from '../../../shared/knowledge/extract';
import {
  ParseLimitError,
  UnreadableDocumentError,
  WorkerDocumentParser,
  type ParseLimit,
  type WorkerDocumentParserOptions,
} from '../../../shared/knowledge/worker-parser';
import { HOSTILE, HOSTILE_READER } from '../../support/hostile-reader';
import { blankBombPdf, textBombPdf } from '../../support/pdf-bombs';

const fixture = (name: string) => readFile(new URL(`../../fixtures/knowledge/${name}`, import.meta.url));
const text = (body: string): DocumentSource => ({ kind: 'text', text: body });
const HOURS = text('## Hours\n\nOpen 8 to 6.');
const HOURS_CHUNKS = [{ heading: 'Hours', text: 'Open 8 to 6.' }];
/** The outcome of a parse expected to fail. */
const failure = (parsing: Promise<unknown>) =>
  parsing.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('WorkerDocumentParser: the fixtures', () => {
  const parser = new WorkerDocumentParser();
  afterAll(() => parser.close());

  it.each([
    ['about.html', 'html'],
    ['policies.pdf', 'pdf'],
    ['faq.md', 'text'],
    ['services.txt', 'text'],
  ] as const)('reads %s in the worker exactly as on this thread', async (name, kind) => {
    // Arrange
    const bytes = await fixture(name);
    const source: DocumentSource = kind === 'text' ? text(bytes.toString('utf8')) : { kind, bytes };
    // Act
    const parsed = await parser.parse(source);
    // Assert
    expect(parsed.chunks.length).toBeGreaterThan(0);
    expect(parsed).toEqual(await readDocument(source));
  });

  it('reads all of them in one worker, and keeps it after a PDF it cannot read', async () => {
    const error = await failure(parser.parse({ kind: 'pdf', bytes: Buffer.from('%PDF-1.4\nnot a PDF after all') }));
    expect(error).toBeInstanceOf(UnreadableDocumentError);
    expect(await parser.parse(HOURS)).toEqual({ characters: 22, chunks: HOURS_CHUNKS, truncated: false });
    expect(parser.workersStarted).toBe(1);
  });
});

describe('WorkerDocumentParser: a hostile document fails alone', () => {
  /** Only the bound under test can stop each: the others are far away. */
  const QUICK_DEADLINE: WorkerDocumentParserOptions = { deadlineMs: 500, readerUrl: HOSTILE_READER };
  const SMALL_MEMORY: WorkerDocumentParserOptions = { deadlineMs: 60_000, memoryMb: 64, readerUrl: HOSTILE_READER };

  it.each<[string, string, WorkerDocumentParserOptions, ParseLimit, string]>([
    ['spins without yielding', HOSTILE.loop, QUICK_DEADLINE, 'time', 'longer than 0.5 s'],
    ['fills its JS heap', HOSTILE.heap, SMALL_MEMORY, 'memory', 'more than 64 MB'],
    ['fills buffers outside its heap', HOSTILE.buffers, SMALL_MEMORY, 'memory', 'more than 64 MB'],
    ['ends its own thread', HOSTILE.exit, QUICK_DEADLINE, 'crash', 'the reader exited with code 3'],
    ['throws where it cannot answer', HOSTILE.uncaught, QUICK_DEADLINE, 'crash', 'hostile reader: thrown from a timer'],
  ])('%s: stopped, and the next document is read by a new worker', async (_, marker, options, limit, message) => {
    // Arrange
    const parser = new WorkerDocumentParser(options);
    await parser.parse(HOURS);
    // Act
    const error = await failure(parser.parse(text(`${marker}\n\nOpening hours`)));
    const next = await parser.parse(HOURS);
    // Assert
    expect(error).toBeInstanceOf(ParseLimitError);
    expect(error).toMatchObject({ limit, message });
    expect(next.chunks).toEqual(HOURS_CHUNKS);
    expect(parser.workersStarted).toBe(2);
    await parser.close();
  });

  it("starts each document's deadline when its own parse starts, not when it was queued", async () => {
    // Arrange
    const parser = new WorkerDocumentParser(QUICK_DEADLINE);
    // Act: the second waits a whole deadline behind the first, then has its own
    const [hostile, next] = await Promise.allSettled([parser.parse(text(HOSTILE.loop)), parser.parse(HOURS)]);
    // Assert
    expect(hostile).toMatchObject({ status: 'rejected', reason: { limit: 'time' } });
    expect(next).toMatchObject({ status: 'fulfilled', value: { chunks: HOURS_CHUNKS } });
    await parser.close();
  });

  it('says the worker could not start (our failure, to retry) rather than blaming the document', async () => {
    const parser = new WorkerDocumentParser({ readerUrl: new URL('./no-such-reader.ts', import.meta.url) });
    const error = await failure(parser.parse(HOURS));
    expect(error).not.toBeInstanceOf(ParseLimitError);
    expect(error).toMatchObject({ message: expect.stringContaining('the parse worker could not start') });
  });
});

describe('WorkerDocumentParser: real hostile PDFs, read by PDF.js', () => {
  let bomb: Uint8Array;
  beforeAll(() => {
    bomb = blankBombPdf(100);
  });

  it('stops a PDF that inflates to 100 MB of blank space at the memory cap', async () => {
    // Arrange: no text, so no character budget stops it; PDF.js holds the inflated stream in buffers
    const parser = new WorkerDocumentParser({ memoryMb: 64, deadlineMs: 60_000 });
    // Act
    const error = await failure(parser.parse({ kind: 'pdf', bytes: bomb }));
    // Assert
    expect(bomb.length).toBeLessThan(300_000);
    expect(error).toMatchObject({ limit: 'memory', message: 'more than 64 MB' });
    expect((await parser.parse(HOURS)).chunks).toEqual(HOURS_CHUNKS);
    await parser.close();
  });

  it('kills a PDF still being read at the deadline', async () => {
    // Arrange: 40 M characters of text take PDF.js seconds to reach the 500,000 kept
    const parser = new WorkerDocumentParser({ deadlineMs: 200 });
    // Act
    const error = await failure(parser.parse({ kind: 'pdf', bytes: textBombPdf(200_000) }));
    // Assert: stopped by the deadline, from outside (no wall-clock bound: a loaded machine stretches it)
    expect(error).toMatchObject({ limit: 'time', message: 'longer than 0.2 s' });
    expect((await parser.parse(HOURS)).chunks).toEqual(HOURS_CHUNKS);
    await parser.close();
  });
});
