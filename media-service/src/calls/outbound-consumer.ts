import * as v from 'valibot';
import type { CallRecord, CallRepository } from '../../../shared/db/call-repository';
import { equalJitterMs, type Backoff } from '../../../shared/domain/backoff';
import { OutboundCallJobSchema, type OutboundCallJob, type OutboundJobs, type ReceivedJob } from '../../../shared/queue/outbound-calls';
import type { DialResult } from './dial-outbound';
import type { Logger } from '../../../shared/log';

/** What happens to a claimed call: the engine dials it (telephony lives behind this function). */
export type DialCall = (call: CallRecord) => Promise<DialResult>;

/** The task's admission cap as the consumer sees it (server/task-admission.ts implements it). */
export interface DialAdmission {
  /** How many more calls the task may take now. */
  room(): number;
  /** Resolves once there is room, or when `signal` aborts. */
  whenRoom(signal?: AbortSignal): Promise<void>;
  /** Counts a call being dialled; the result settles it (placed: counted a while longer). */
  beginDial(): (placed: boolean) => void;
}

export interface OutboundConsumerOptions {
  /** The outbound-calls queue (SQS on AWS, fauxqs locally). */
  jobs: OutboundJobs;
  calls: CallRepository;
  dial: DialCall;
  /** This process's identity, stored on claimed calls (diagnostics and takeover). */
  owner: string;
  now: () => Date;
  log: Logger;
  /** Matches the queue's visibility timeout (60 s in infra); extended at half of it while dialling. */
  visibilityTimeoutS?: number;
  waitTimeS?: number;
  /**
   * How long a call deferred at the concurrency cap waits before its job is tried again, by how
   * many times it was deferred before (0 the first time); default {@link waitAtCapS}.
   */
  deferDelayS?: (attempt: number) => number;
  /**
   * How long a call whose dial failed before anything was placed (`retry`) waits before its job is
   * tried again, by the job's attempt count; default {@link waitAfterFailureS}.
   */
  retryDelayS?: (attempt: number) => number;
  /** The task's cap: no receive while it has no room (absent: always receive up to 10). */
  admission?: DialAdmission;
}

/** What the poll loop is doing (logs and tests). */
export type ConsumerState = 'idle' | 'receiving' | 'at_task_cap' | 'stopped';

/** A call waiting at the cap: 2 s doubling to 60 s. */
export const WAIT_AT_CAP: Backoff = { baseMs: 2000, capMs: 60_000 };

/** A call whose dial failed with nothing placed: 5 s doubling to 60 s. */
export const WAIT_AFTER_FAILURE: Backoff = { baseMs: 5000, capMs: 60_000 };

/** SQS refuses a DelaySeconds above 15 minutes. */
const MAX_DELAY_S = 900;

/**
 * The default wait of a call deferred at the cap for the `attempt`-th time: exponential (2 s doubling
 * to 60 s), equal jitter (between half the step and the step), whole seconds as SQS wants them.
 */
export function waitAtCapS(attempt: number, random: () => number = Math.random): number {
  return Math.min(MAX_DELAY_S, Math.max(1, Math.round(equalJitterMs(attempt, WAIT_AT_CAP, random) / 1000)));
}

/**
 * The default wait before a failed dial's job comes back, for its `attempt`-th send-back: 5 s
 * doubling to 60 s, equal jitter (2.5–5 s, 5–10 s, 10–20 s, 20–40 s, then 30–60 s), below the
 * sweeper's 2 minutes for a call left unclaimed.
 */
export function waitAfterFailureS(attempt: number, random: () => number = Math.random): number {
  return Math.min(MAX_DELAY_S, Math.max(1, Math.round(equalJitterMs(attempt, WAIT_AFTER_FAILURE, random) / 1000)));
}

/** The result of handling one message (for logs and tests). */
export type JobOutcome = 'dialled' | 'ended' | 'deferred' | 'retried' | 'already_claimed' | 'call_missing' | 'invalid';

/**
 * The outbound-calls consumer: long-polls the queue, claims each call once, dials it (or, at the
 * business's concurrency cap or after a failure that placed nothing, gives the claim back and sends
 * the job again later), and deletes a message only once its call needs it no more: dialled, ended,
 * sent again, or claimed by another job (whose own message stays until its dial is done). A job
 * whose dial stopped without an outcome (the task died, or the give-back itself failed) is
 * delivered again after the visibility timeout and takes over its own claim, so no crash strands
 * a call. Malformed messages are left for the queue's DLQ after `maxReceiveCount` receives, where
 * ops can inspect them. The visibility timeout is extended while a dial takes long, so a slow
 * carrier never causes a second delivery.
 */
export class OutboundConsumer {
  private running = false;
  #state: ConsumerState = 'idle';
  #abort = new AbortController();

  constructor(private readonly options: OutboundConsumerOptions) {}

  /** Handles one received message. */
  async handle(message: ReceivedJob): Promise<JobOutcome> {
    const parsed = v.safeParse(OutboundCallJobSchema, safeJson(message.Body));
    if (!parsed.success) {
      this.options.log.error(`outbound job ${message.MessageId} is malformed; leaving it for the DLQ`);
      return 'invalid';
    }
    const job = parsed.output;
    const claimed = await this.claim(message, job);
    if (!claimed) {
      const exists = await this.options.calls.getCallRecord(job.business_id, job.call_id);
      await this.delete(message);
      return exists ? 'already_claimed' : 'call_missing';
    }
    const stopHeartbeat = this.heartbeat(message);
    const settle = this.options.admission?.beginDial();
    let result: DialResult | undefined;
    try {
      result = await this.options.dial(claimed);
    } finally {
      stopHeartbeat();
      settle?.(result === 'dialled');
    }
    if (result === 'deferred') return this.defer(message, job);
    if (result === 'retry') return this.retry(message, job);
    await this.delete(message);
    return result;
  }

  /**
   * Claims the job's call. The message's id goes with the claim: the same message delivered again
   * after half the visibility timeout means the dial that received it stopped extending it (its
   * task died mid-dial), and it takes the claim over ({@link CallRepository.claimQueued}).
   */
  private claim(message: ReceivedJob, job: OutboundCallJob): Promise<CallRecord | undefined> {
    const now = this.options.now();
    const staleBefore = new Date(now.getTime() - (this.visibility() * 1000) / 2).toISOString();
    const own = message.MessageId === undefined ? undefined : { id: message.MessageId, staleBefore };
    return this.options.calls.claimQueued(job.business_id, job.call_id, this.options.owner, now.toISOString(), own);
  }

  /**
   * Polls until `stop()`; each batch's messages are handled concurrently. While the task is at its
   * cap nothing is received (the jobs stay on the queue for other tasks, and their age drives the
   * scale-out); below it, a receive asks for at most the room left.
   */
  async run(): Promise<void> {
    this.running = true;
    this.#abort = new AbortController();
    while (this.running) {
      const max = await this.roomToReceive(this.#abort.signal);
      if (!this.running) break;
      this.#state = 'receiving';
      const received = await this.options.jobs.receive(this.options.waitTimeS ?? 20, this.visibility(), { max });
      if (!this.running) {
        await this.handBack(received);
        break;
      }
      await Promise.all(
        received.map((message) =>
          this.handle(message).catch((error) =>
            this.options.log.error(`outbound job ${message.MessageId} failed; it will be redelivered`, { error }),
          ),
        ),
      );
    }
    this.#state = 'stopped';
  }

  /**
   * Stops receiving (SIGTERM drain): no receive starts after this, and whatever the long poll under
   * way returns is handed back to the queue untouched, visible to other tasks at once. The poll is
   * left to finish (at most `waitTimeS`) rather than aborted: SQS may already have handed a message
   * to an abandoned poll, and that message would stay hidden for the whole visibility timeout.
   * `run()` resolves once the poll is back; dials already under way finish.
   */
  stop(): void {
    this.running = false;
    this.#abort.abort();
  }

  /** What the poll loop is doing now. */
  get state(): ConsumerState {
    return this.#state;
  }

  /** How many jobs the next receive may take; waits (logged once) while the task is at its cap. */
  private async roomToReceive(signal: AbortSignal): Promise<number> {
    const admission = this.options.admission;
    if (!admission) return 10;
    if (admission.room() === 0) {
      this.#state = 'at_task_cap';
      this.options.log.info('outbound.paused_at_task_cap');
      await admission.whenRoom(signal);
      if (this.running) this.options.log.info('outbound.resumed', { room: admission.room() });
    }
    return Math.min(10, admission.room());
  }

  /** Jobs received as the consumer stopped go straight back to the queue for another task. */
  private async handBack(received: ReceivedJob[]): Promise<void> {
    await Promise.all(
      received.map((message) =>
        this.options.jobs
          .release(message)
          .catch((error) =>
            this.options.log.warn(`outbound job ${message.MessageId} not handed back; visible again after its timeout`, { error }),
          ),
      ),
    );
  }

  /**
   * At the cap: the call stays `queued`, unclaimed, and its job comes back after a wait that grows
   * with each deferral (the job carries the count), so calls waiting long at the cap cost a read of
   * the business item every minute, not every few seconds. The copy is sent before the message is
   * deleted, so a crash in between leaves a duplicate (harmless: claims are conditional), never a
   * lost call. Every deferred call retries on its own timer, so calls start roughly, not strictly,
   * in order as slots free (a call that waited long may wait up to a minute longer than a newer one).
   */
  private async defer(message: ReceivedJob, job: OutboundCallJob): Promise<JobOutcome> {
    await this.options.calls.releaseClaim(job.business_id, job.call_id, this.options.owner, this.options.now().toISOString());
    await this.sendAgain(message, job, this.options.deferDelayS ?? waitAtCapS);
    return 'deferred';
  }

  /**
   * After a failure that placed nothing: the dialler has already given back the claim, slot and
   * minutes, so the job only comes back later, after a wait that grows with its attempt count.
   * Copy first, delete second, as at the cap.
   */
  private async retry(message: ReceivedJob, job: OutboundCallJob): Promise<JobOutcome> {
    await this.sendAgain(message, job, this.options.retryDelayS ?? waitAfterFailureS);
    return 'retried';
  }

  /** Sends a copy of the job, counted and delayed by `delayS(attempt)`, then deletes the received one. */
  private async sendAgain(message: ReceivedJob, job: OutboundCallJob, delayS: (attempt: number) => number): Promise<void> {
    const attempt = job.attempt ?? 0;
    await this.options.jobs.resend(
      { business_id: job.business_id, call_id: job.call_id, attempt: attempt + 1 },
      Math.min(MAX_DELAY_S, delayS(attempt)),
    );
    await this.delete(message);
  }

  private visibility(): number {
    return this.options.visibilityTimeoutS ?? 60;
  }

  private heartbeat(message: ReceivedJob): () => void {
    const timer = setInterval(
      () => {
        this.options.jobs
          .extend(message, this.visibility())
          .catch((error) => this.options.log.warn('could not extend an outbound job visibility', { error }));
      },
      (this.visibility() * 1000) / 2,
    );
    return () => clearInterval(timer);
  }

  private async delete(message: ReceivedJob): Promise<void> {
    await this.options.jobs.complete(message);
  }
}

function safeJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}
