import { Worker } from 'node:worker_threads';
import type { DocumentSource, ParsedDocument } from './extract';
import type { ParseReply, ParseRequest, ParseWorkerData } from './parse-worker';

/**
 * The bounds of one document's parse (docs/api-tour.md "Knowledge bases", docs/decisions.md). A hostile page
 * or PDF that outruns them fails alone; the ingestion process and the next document carry on.
 */
export const PARSE_LIMITS = {
  /** Wall-clock time from handing a document to the worker to its chunks; then the worker is killed. */
  deadlineMs: 20_000,
  /** The worker's JS heap (V8's own limit), and as much again in buffers outside it (watched). */
  memoryMb: 256,
} as const;

/**
 * How often a parsing worker's buffers are measured. Buffers (a PDF's inflated streams) live
 * outside the V8 heap, which `resourceLimits` does not bound: a 0.6 MB PDF of blank lines inflates
 * to 300 MB. Allocating 16 MB buffers in a loop grew ~300 MB in 200 ms, so polling every 50 ms
 * keeps the overshoot under ~100 MB.
 */
const MEMORY_POLL_MS = 50;
/** A new worker's time to load its modules: ~40 ms bundled, 0.4–2 s under tsx on a busy machine. */
const STARTUP_TIMEOUT_MS = 30_000;

/** Which bound stopped a parse: the deadline, the memory cap, or the worker dying on its own. */
export type ParseLimit = 'time' | 'memory' | 'crash';

/** A parse stopped from outside: the document is at fault, and its worker is gone. */
export class ParseLimitError extends Error {
  constructor(
    readonly limit: ParseLimit,
    message: string,
  ) {
    super(message);
    this.name = 'ParseLimitError';
  }
}

/** The reader threw on the document (a malformed PDF, say); its worker lives on. */
export class UnreadableDocumentError extends Error {
  override name = 'UnreadableDocumentError';
}

/** Reads documents into chunks somewhere a hostile one cannot take the ingestion process down. */
export interface DocumentParser {
  /**
   * Throws {@link ParseLimitError} or {@link UnreadableDocumentError} for the document's faults,
   * anything else for ours (the worker would not start), which the queue should retry.
   */
  parse(source: DocumentSource): Promise<ParsedDocument>;
  /** Stops whatever it runs on (tests; a process that ends needs nothing). */
  close(): Promise<void>;
}

/** Options of {@link WorkerDocumentParser}; the defaults are {@link PARSE_LIMITS}. */
export interface WorkerDocumentParserOptions {
  /** Wall-clock time one document may take (tests: a second, not twenty). */
  deadlineMs?: number;
  /** The worker's heap limit, and its buffers' cap, in MB. */
  memoryMb?: number;
  /** A module exporting `readDocument` to run in the worker instead of the real one (tests). */
  readerUrl?: URL;
}

/**
 * Where the worker's entry is: beside this file under tsx (tests, `npm run dev`), and beside the
 * Lambda's bundle once bundled (`parse-worker.mjs`, built by the function's afterBundling hook).
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_ENTRY = new URL(FROM_SOURCE ? './parse-worker.ts' : './parse-worker.mjs', import.meta.url);
/** Under tsx the worker needs tsx's loader too, resolved here rather than from the working directory. */
const WORKER_EXEC_ARGV = FROM_SOURCE ? ['--import', import.meta.resolve('tsx')] : [];

/** The one document a worker is reading, and how its parse ends. */
interface Job {
  worker: Worker;
  id: number;
  settle(outcome: { document: ParsedDocument } | { error: Error }): void;
}

/**
 * Parses documents in a `node:worker_threads` Worker: V8 caps the worker's heap, a watch on its
 * heap statistics caps its buffers, and a deadline enforced from here terminates it even if it
 * never yields. One worker is reused document after document (spawning one costs ~40 ms
 * bundled, docs/performance.md); a killed or crashed one is replaced on the next parse. Documents
 * are parsed one at a time, each deadline starting when its own parse does.
 *
 * @example
 * const parser = new WorkerDocumentParser();
 * const { chunks } = await parser.parse({ kind: 'html', bytes }); // ParseLimitError if hostile
 */
export class WorkerDocumentParser implements DocumentParser {
  readonly #deadlineMs: number;
  readonly #memoryMb: number;
  readonly #workerData: ParseWorkerData;
  #worker: Promise<Worker> | undefined;
  #live: Worker | undefined;
  #job: Job | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 0;
  #started = 0;

  constructor(options: WorkerDocumentParserOptions = {}) {
    this.#deadlineMs = options.deadlineMs ?? PARSE_LIMITS.deadlineMs;
    this.#memoryMb = options.memoryMb ?? PARSE_LIMITS.memoryMb;
    this.#workerData = options.readerUrl ? { readerUrl: options.readerUrl.href } : {};
  }

  /** Workers started so far (one, unless some were killed): what reuse saves is observable. */
  get workersStarted(): number {
    return this.#started;
  }

  /** Parses after the documents already queued; this one's deadline starts when its parse does. */
  parse(source: DocumentSource): Promise<ParsedDocument> {
    const parsed = this.#queue.then(() => this.#parseNow(source));
    this.#queue = parsed.catch(() => undefined);
    return parsed;
  }

  /** Waits for queued parses, then stops the worker (an idle one never keeps the process alive). */
  async close(): Promise<void> {
    await this.#queue;
    const worker = this.#worker;
    this.#worker = undefined;
    await (await worker?.catch(() => undefined))?.terminate();
  }

  async #parseNow(source: DocumentSource): Promise<ParsedDocument> {
    const worker = await (this.#worker ??= this.#spawn());
    let watch: NodeJS.Timeout | undefined;
    let deadline: NodeJS.Timeout | undefined;
    const outcome = await new Promise<{ document: ParsedDocument } | { error: Error }>((settle) => {
      const job: Job = { worker, id: ++this.#nextId, settle };
      this.#job = job;
      deadline = setTimeout(() => this.#kill(job, 'time', `longer than ${this.#deadlineMs / 1000} s`), this.#deadlineMs);
      watch = setInterval(() => void this.#checkMemory(job), MEMORY_POLL_MS);
      worker.postMessage({ id: job.id, source } satisfies ParseRequest);
    });
    clearTimeout(deadline);
    clearInterval(watch);
    this.#job = undefined;
    if ('error' in outcome) throw outcome.error;
    return outcome.document;
  }

  /** Starts a worker, its job's outcomes wired to its messages, errors and exit. */
  #spawn(): Promise<Worker> {
    this.#started++;
    const worker = new Worker(WORKER_ENTRY, {
      workerData: this.#workerData,
      execArgv: WORKER_EXEC_ARGV,
      // The young generation is left to V8, which sizes it from the old one: 16 or 32 MB made the
      // 5 MB table no faster (1.2 s as V8 sizes it, 2.6 s at 16, 3.3 s at 32, on a busy machine).
      resourceLimits: { maxOldGenerationSizeMb: this.#memoryMb },
    });
    this.#live = worker;
    worker.on('message', (reply: ParseReply) => {
      const job = this.#job;
      if ('ready' in reply || job?.worker !== worker || job.id !== reply.id) return;
      job.settle('error' in reply ? { error: new UnreadableDocumentError(reply.error) } : { document: reply.document });
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') this.#died(worker, 'memory', `more than ${this.#memoryMb} MB`);
      else this.#died(worker, 'crash', error.message.slice(0, 120));
    });
    worker.on('exit', (code) => this.#died(worker, 'crash', `the reader exited with code ${code}`));
    return this.#ready(worker);
  }

  /** Waits until a new worker's modules are loaded, so no document's deadline pays for that. */
  #ready(worker: Worker): Promise<Worker> {
    return new Promise<Worker>((resolve, reject) => {
      const ready = (reply: ParseReply) => 'ready' in reply && settle();
      const died = (reason: unknown) => settle(reason instanceof Error ? reason : new Error(`exited with code ${String(reason)}`));
      const timer = setTimeout(() => died(new Error(`not ready after ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS);
      const settle = (error?: Error) => {
        clearTimeout(timer);
        worker.off('message', ready).off('error', died).off('exit', died);
        // An idle worker must not keep the process alive (`npm run dev`'s restarts, the tests, the
        // benchmark). Only after the listeners are set: adding a 'message' one refs the port again.
        if (!error) {
          worker.unref();
          return resolve(worker);
        }
        this.#forget(worker);
        void worker.terminate();
        reject(new Error(`the parse worker could not start: ${error.message}`, { cause: error }));
      };
      worker.on('message', ready).once('error', died).once('exit', died);
    });
  }

  /** Past a bound: the job fails once its worker is gone, so the memory is back before the next. */
  #kill(job: Job, limit: ParseLimit, detail: string): void {
    if (this.#job !== job) return;
    this.#job = undefined;
    this.#forget(job.worker);
    void job.worker.terminate().finally(() => job.settle({ error: new ParseLimitError(limit, detail) }));
  }

  /** The worker died on its own (V8's heap limit, an uncaught error, an exit): its job fails. */
  #died(worker: Worker, limit: ParseLimit, detail: string): void {
    this.#forget(worker);
    const job = this.#job;
    if (job?.worker !== worker) return;
    this.#job = undefined;
    job.settle({ error: new ParseLimitError(limit, detail) });
  }

  /**
   * Buffers only: the heap is V8's to bound, since its used size counts garbage not yet collected
   * (adding it in killed a 4 MB page of paragraphs at 192 MB that reads fine under a 128 MB heap).
   */
  async #checkMemory(job: Job): Promise<void> {
    const heap = await job.worker.getHeapStatistics().catch(() => undefined);
    if (heap && heap.external_memory > this.#memoryMb * 1024 * 1024) this.#kill(job, 'memory', `more than ${this.#memoryMb} MB`);
  }

  /** The next parse starts a new worker. */
  #forget(worker: Worker): void {
    if (this.#live !== worker) return;
    this.#live = undefined;
    this.#worker = undefined;
  }
}
