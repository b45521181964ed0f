import { randomUUID } from 'node:crypto';
import { analyzeCall } from '../../functions/analysis/analyze-call';
import { deliverRecord, MAX_QUEUE_DELAY_S, type DeliverDeps, type WebhookQueue } from '../../functions/webhook-delivery/deliver';
import type { CoreDeps } from '../../functions/lib/deps';
import type { ApiConfig } from '../../functions/lib/config';
import { OpenAiSandboxServer } from '../../media-service/src/sandbox/openai-server';
import { DeliveryRepository } from '../../shared/db/delivery-repository';
import type { CallEvent } from '../../shared/events/catalog';
import { LocalEventRouter, type EventBus } from '../../shared/events/event-bus';
import { OpenAiAnalysisClient } from '../../shared/llm/analysis-client';
import { createLogger, type Logger } from '../../shared/log';

/** A cancellable one-shot timer: real `setTimeout` in `npm run dev`, a manual clock in tests. */
export type ScheduleTimer = (run: () => void, delayMs: number) => () => void;

/** Options of {@link startLocalAfterCall}; every default is what `npm run dev` wants. */
export interface LocalAfterCallOptions {
  /** A real OpenAI key (`OPENAI_API_KEY`): the analysis then asks OpenAI itself. */
  openAiApiKey?: string;
  /** An OpenAI-compatible base URL already running (the media service's sandbox), shared instead of starting one. */
  openAiBaseUrl?: string;
  now?: () => Date;
  random?: () => number;
  schedule?: ScheduleTimer;
  log?: Logger;
}

/** The running after-call pipeline: the call engine publishes call.started/transferred/ended to `events`. */
export interface LocalAfterCall {
  events: EventBus;
  /** Where the analysis LLM is (`undefined`: api.openai.com). */
  llmBaseUrl: string | undefined;
  /**
   * The sandbox OpenAI started here (no key and no URL given), which the in-process call engine
   * shares: its `requests` are every prompt the calls and the analyses sent (tests read them).
   */
  llmSandbox: OpenAiSandboxServer | undefined;
  /** Waits for in-flight work, cancels pending webhook retries, closes a sandbox LLM it started. */
  stop(): Promise<void>;
}

/** How long a message whose handler threw waits before it runs again, and how often (SQS visibility + maxReceiveCount). */
const REDELIVERY_MS = 30_000;
const MAX_RECEIVES = 5;

const realTimer: ScheduleTimer = (run, delayMs) => {
  const timer = setTimeout(run, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * The local webhook queue: a delayed message is a timer that runs the delivery handler. It keeps
 * SQS's 15-minute delay cap, so long retry waits hop exactly as they do on AWS, and redelivers a
 * message whose handler threw (our own failure, not the receiver's) like an SQS visibility timeout.
 * Pending retries live in memory: stopping `npm run dev` drops them (the delivery records stay).
 */
export class TimerWebhookQueue implements WebhookQueue {
  readonly #pending = new Map<symbol, () => void>();
  readonly #running = new Set<Promise<void>>();
  #closed = false;

  constructor(
    private readonly handle: (body: string) => Promise<unknown>,
    private readonly schedule: ScheduleTimer,
    private readonly log: Logger,
  ) {}

  async send(body: string, delaySeconds: number): Promise<void> {
    if (this.#closed) return this.log.warn('local webhook queue: stopped; a delivery message was dropped');
    const delayS = Math.min(MAX_QUEUE_DELAY_S, Math.max(0, Math.ceil(delaySeconds)));
    this.#later(body, delayS * 1000, 1);
  }

  /** Cancels every pending message and waits for the running ones. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const cancel of this.#pending.values()) cancel();
    this.#pending.clear();
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  #later(body: string, delayMs: number, receive: number): void {
    const id = Symbol('message');
    const cancel = this.schedule(() => {
      this.#pending.delete(id);
      const run = this.#receive(body, receive).finally(() => this.#running.delete(run));
      this.#running.add(run);
    }, delayMs);
    this.#pending.set(id, cancel);
  }

  async #receive(body: string, receive: number): Promise<void> {
    try {
      await this.handle(body);
    } catch (error) {
      if (receive >= MAX_RECEIVES) return this.log.error(`local webhook queue: message dead-lettered after ${receive} receives`, { error });
      this.log.warn(`local webhook queue: message failed (receive ${receive}); redelivering in ${REDELIVERY_MS / 1000} s`, { error });
      this.#later(body, REDELIVERY_MS, receive + 1);
    }
  }
}

/** The analysis LLM: OpenAI with a real key, else the given sandbox URL, else a sandbox started here. */
async function analysisLlm(
  options: LocalAfterCallOptions,
): Promise<{ client: OpenAiAnalysisClient; baseUrl: string | undefined; sandbox?: OpenAiSandboxServer; close(): Promise<void> }> {
  if (options.openAiApiKey)
    return { client: new OpenAiAnalysisClient({ apiKey: options.openAiApiKey }), baseUrl: undefined, close: async () => undefined };
  const started = options.openAiBaseUrl ? undefined : await OpenAiSandboxServer.start({ ttftMs: 0, tokenIntervalMs: 0 });
  const baseUrl = options.openAiBaseUrl ?? started!.baseUrl;
  return {
    client: new OpenAiAnalysisClient({ apiKey: 'sk-sandbox', baseURL: baseUrl }),
    baseUrl,
    ...(started && { sandbox: started }),
    close: async () => void (await started?.close()),
  };
}

/**
 * `npm run dev`'s after-the-call pipeline, wired like AWS: the local event router applies the SAME
 * rules infra deploys (shared/events/rules.ts), `call.ended` runs the analysis handler, and
 * `call.started` / `call.transferred` / `call.completed` go to the webhook delivery handler, whose
 * retries follow the documented schedule through {@link TimerWebhookQueue}.
 *
 * @example
 * const afterCall = await startLocalAfterCall(core, config, { openAiBaseUrl: sandbox.baseUrl });
 * await afterCall.events.publish([{ type: 'call.ended', detail }]);
 */
export async function startLocalAfterCall(core: CoreDeps, config: ApiConfig, options: LocalAfterCallOptions = {}): Promise<LocalAfterCall> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? createLogger({ service: 'after-call' });
  const repos = { calls: core.callRepo, assistants: core.assistantRepo, businesses: core.businesses };
  // The same memory store the analysis Lambda writes on AWS (functions/analysis/index.ts): the call
  // engine recalls from it on the caller's next call.
  const memory = core.callerMemory;
  const llm = await analysisLlm(options);
  const queue = new TimerWebhookQueue((body) => deliverRecord(body, deliverDeps), options.schedule ?? realTimer, log);
  const recordingLinks = core.recordingLinks;
  const deliverDeps: DeliverDeps = {
    ...repos,
    deliveries: new DeliveryRepository(core.db),
    secretBox: core.secretBox,
    queue,
    now,
    random: options.random ?? Math.random,
    allowPrivate: config.ALLOW_PRIVATE_URLS,
    ...(recordingLinks ? { recordingUrl: (key: string) => recordingLinks.presign(key) } : {}),
    log,
  };
  const router: LocalEventRouter = new LocalEventRouter(
    {
      analysis: async (event: CallEvent) =>
        void (await analyzeCall(event, {
          ...repos,
          memory,
          events: router,
          model: llm.client,
          now,
          newEventId: () => `evt_${randomUUID()}`,
          log,
        })),
      // The EventBridge envelope exactly as the rule's SQS target would carry it.
      webhooks: async (event: CallEvent) =>
        void (await deliverRecord(JSON.stringify({ 'detail-type': event.type, detail: event.detail }), deliverDeps)),
    },
    log,
  );
  return {
    events: router,
    llmBaseUrl: llm.baseUrl,
    llmSandbox: llm.sandbox,
    async stop() {
      await router.drain();
      await queue.close();
      await llm.close();
    },
  };
}
