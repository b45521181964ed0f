import * as v from 'valibot';
import { KNOWLEDGE_LIMITS, type KnowledgeHit } from '../../../shared/domain/knowledge';
import type { Logger } from '../../../shared/log';
import type { RunnableTool } from './tool-types';

/** The knowledge search the call engine uses: the process's shared index cache (shared/knowledge/index-cache.ts). */
/** The knowledge search's name (reserved: no custom tool may take it). */
export const SEARCH_KNOWLEDGE_TOOL = 'search_knowledge';

export interface KnowledgeBackend {
  search(businessId: number, kbIds: readonly number[], query: string, topK: number): Promise<KnowledgeHit[]>;
}

/** Passages the model gets per search. */
const TOP_K = 3;
/** A speculative search is used when the model's query is made of the caller's own words (this share of them, at least). */
const REUSE_OVERLAP = 0.6;

const ArgsSchema = v.object({ query: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(KNOWLEDGE_LIMITS.queryChars)) });
type Args = v.InferOutput<typeof ArgsSchema>;

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** How many of `query`'s words the transcript holds (0-1). */
function overlap(query: string, transcript: string): number {
  const asked = words(query);
  if (asked.size === 0) return 0;
  const heard = words(transcript);
  let shared = 0;
  for (const word of asked) if (heard.has(word)) shared++;
  return shared / asked.size;
}

/** Speculative retrieval counts of one call: how often the passages were ready when the model asked. */
export interface SpeculationCounts {
  started: number;
  /** The model asked and a speculative search of the caller's words had already finished. */
  ready: number;
  /** The model asked and one was still running (it was awaited). */
  pending: number;
  /** The model asked with words the caller did not say, or nothing was started: a fresh search. */
  missed: number;
}

/**
 * `search_knowledge` on one call (builtin `knowledge` with `knowledge_ids`), and its speculative
 * retrieval: each time the caller's turn (probably) ends, the transcript is searched at once, so
 * when the model asks, with the caller's words, the passages are often already there. Each of the
 * model's searches logs `call.knowledge.search`: how it went (`speculative`), how long the model's
 * call waited for passages (`wait_ms`: ~0 when ready) and the call's counts so far
 * (`npm run bench:knowledge` reads them over many calls).
 */
export class CallKnowledge {
  readonly counts: SpeculationCounts = { started: 0, ready: 0, pending: 0, missed: 0 };
  #latest: { transcript: string; hits: Promise<KnowledgeHit[]>; settled: boolean } | undefined;

  constructor(
    private readonly backend: KnowledgeBackend,
    private readonly businessId: number,
    private readonly kbIds: readonly number[],
    private readonly log: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts a search of the caller's words (eager or final end of turn); the same words twice start one. */
  speculate(transcript: string): void {
    const text = transcript.trim().slice(0, KNOWLEDGE_LIMITS.queryChars);
    if (text === '' || this.#latest?.transcript === text) return;
    const entry = { transcript: text, hits: this.#search(text), settled: false };
    entry.hits.then(
      () => (entry.settled = true),
      () => (entry.settled = true),
    );
    this.#latest = entry;
    this.counts.started++;
  }

  readonly tool: RunnableTool<Args> = {
    definition: {
      name: SEARCH_KNOWLEDGE_TOOL,
      description:
        "Search the business's documents (FAQ, policies, prices, pages) for what the caller asked. Use it for any question about the " +
        "business you cannot answer from the prompt; pass the caller's question in their words. Answer only from the passages returned.",
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: "The caller's question, in their words.", maxLength: 500 } },
        required: ['query'],
        additionalProperties: false,
      },
    },
    args: ArgsSchema,
    timeoutMs: 5000,
    unavailable: "The business's documents could not be searched just now. Tell the caller you cannot check that right now.",
    execute: async (args) => {
      const hits = await this.#answer(args.query);
      return {
        output:
          hits.length === 0
            ? { passages: [], note: 'Nothing relevant was found.' }
            : { passages: hits.map((hit) => ({ text: hit.text, document: hit.document_name })) },
        summary: `${hits.length} passage${hits.length === 1 ? '' : 's'} found`,
      };
    },
  };

  async #answer(query: string): Promise<KnowledgeHit[]> {
    const asked = this.now();
    const latest = this.#latest;
    const reuse = latest !== undefined && overlap(query, latest.transcript) >= REUSE_OVERLAP;
    const kind = !reuse ? 'missed' : latest.settled ? 'ready' : 'pending';
    this.counts[kind]++;
    try {
      if (reuse) {
        const hits = await latest.hits.catch(() => undefined);
        if (hits) return hits;
      }
      return await this.backend.search(this.businessId, this.kbIds, query, TOP_K);
    } finally {
      const waitMs = Math.round((this.now() - asked) * 10) / 10;
      this.log.info('call.knowledge.search', { speculative: kind, wait_ms: waitMs, ...this.counts });
    }
  }

  #search(query: string): Promise<KnowledgeHit[]> {
    const hits = this.backend.search(this.businessId, this.kbIds, query, TOP_K);
    hits.catch((error: unknown) => this.log.warn('call.knowledge.speculation_failed', { error }));
    return hits;
  }
}
