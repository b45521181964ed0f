import type { PacerScheduler } from '../pipeline/pacer-scheduler';
import { TERMINAL_CALL_STATUSES, type AnsweredBy, type CallProgressStatus } from '../ports/telephony';
import { SimulatedCallee } from './callee';
import { callParams, sendSigned, SIP_CODES, type CallbackRecord } from './carrier-callbacks';
import { SandboxMediaStream } from './carrier-stream';
import { parseTwiml, type TwimlStream, type TwimlVerb } from './carrier-twiml';
import type { CallSetup, CarrierTimers, CarrierTiming, SandboxCallRecord } from './carrier-types';
import type { Scenario, UtteranceSink } from './scenario-script';
import type { Logger } from '../../../shared/log';

/** What a call needs from the carrier. */
export interface CallDeps {
  accountSid: string;
  authToken: string;
  scheduler: PacerScheduler;
  timers: CarrierTimers;
  timing: CarrierTiming;
  utterances?: UtteranceSink;
  callbackTimeoutMs: number;
  log: Logger;
}

/**
 * One simulated call: network progress (status callbacks, signed, in order), the TwiML it runs
 * (`<Connect><Stream>` drives a {@link SandboxMediaStream} with the scenario's callee), AMD,
 * hang-ups from either side and redirects (transfer). Every wait goes through injected timers.
 */
export class SandboxCall {
  readonly record: SandboxCallRecord;
  readonly #deps: CallDeps;
  readonly #setup: CallSetup;
  readonly #t0: number;
  readonly #timers = new Set<unknown>();
  #callbacks: Promise<void> = Promise.resolve();
  #sequence = 0;
  #generation = 0;
  #callee: SimulatedCallee | undefined;
  #stopStream: (() => void) | undefined;
  #streamDtmf: ((digit: string) => void) | undefined;
  #streamEnd: 'server-closed' | 'error' | 'stopped' | undefined;

  constructor(sid: string, setup: CallSetup, deps: CallDeps) {
    this.#deps = deps;
    this.#setup = setup;
    this.#t0 = deps.scheduler.now();
    const scenario = setup.line.kind === 'answer' ? setup.line.scenario.name : undefined;
    this.record = {
      sid,
      accountSid: deps.accountSid,
      direction: setup.direction,
      to: setup.to,
      from: setup.from,
      createdAt: new Date(),
      clockStartMs: this.#t0,
      status: 'queued',
      statusHistory: [{ status: 'queued', atMs: 0 }],
      ...(scenario && { scenario }),
      twiml: [],
      twimlErrors: [],
      said: [],
      callbacks: [],
      streams: [],
    };
  }

  /** True once the call reached a terminal status. */
  get ended(): boolean {
    return TERMINAL_CALL_STATUSES.has(this.record.status);
  }

  /** Starts the simulation (outbound dialling, or the inbound webhook). */
  start(): void {
    void (this.#setup.direction === 'inbound' ? this.#inbound() : this.#outbound()).catch((error: unknown) => {
      this.#deps.log.error('sandbox.call.failed', { callSid: this.record.sid, error: String(error) });
      this.#end('failed', 'carrier');
    });
  }

  /** Hang-up from our REST API (`Status=completed|canceled`) or by the simulated person. */
  hangup(by: 'api' | 'callee' | 'carrier'): void {
    const answered = this.record.answeredAtMs !== undefined;
    this.#end(answered ? 'completed' : 'canceled', by);
  }

  /** REST `Twiml=`/`Url=` update of a live call: the stream stops and the new TwiML runs (e.g. `<Dial>`). */
  redirect(twiml: string): void {
    if (this.ended) return;
    this.#generation++;
    this.#stopStream?.();
    void this.#execute(twiml, this.#generation);
  }

  #elapsed(): number {
    return this.#deps.scheduler.now() - this.#t0;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const handle = this.#deps.timers.setTimeout(() => {
        this.#timers.delete(handle);
        resolve();
      }, ms);
      this.#timers.add(handle);
    });
  }

  async #outbound(): Promise<void> {
    const line = this.#setup.line;
    this.#status('initiated');
    if (line.kind === 'busy' || line.kind === 'failed') {
      await this.#sleep(this.#deps.timing.busyMs);
      return this.#end(line.kind, 'carrier');
    }
    await this.#sleep(this.#deps.timing.dialMs);
    if (this.ended) return;
    this.#status('ringing');
    if (line.kind === 'no-answer') {
      await this.#sleep(Math.min(this.#setup.timeoutS * 1000, this.#deps.timing.maxRingMs));
      return this.#end('no-answer', 'carrier');
    }
    await this.#sleep(this.#deps.timing.answerMs);
    if (this.ended) return;
    this.#answer(line.scenario);
    const twiml = this.#setup.twiml ?? (await this.#fetchTwiml('in-progress'));
    if (twiml !== undefined) await this.#execute(twiml, this.#generation);
  }

  async #inbound(): Promise<void> {
    this.#status('ringing');
    const twiml = await this.#fetchTwiml('ringing');
    if (twiml === undefined) return;
    const verbs = parseTwiml(twiml);
    if (typeof verbs !== 'string' && verbs[0]?.verb === 'Reject') return this.#end('busy', 'twiml');
    if (this.#setup.line.kind === 'answer') this.#answer(this.#setup.line.scenario);
    await this.#execute(twiml, this.#generation);
  }

  #answer(scenario: Scenario): void {
    this.record.answeredAtMs = this.#elapsed();
    const fault = this.#setup.line.kind === 'answer' ? this.#setup.line.fault : undefined;
    if (fault) this.#deps.utterances?.setFault?.(this.record.sid, fault);
    this.#status('in-progress');
    this.#callee = new SimulatedCallee(
      scenario,
      {
        callSid: this.record.sid,
        sendDtmf: (digit) => this.#dtmf(digit),
        hangup: () => this.hangup('callee'),
        beepEnded: () => scenario.answeredBy === 'machine_end_beep' && this.#postAmd('machine_end_beep'),
        amdConcluded: () => this.#postAmd(scenario.answeredBy),
      },
      { ...(this.#deps.utterances && { utterances: this.#deps.utterances }) },
    );
    this.record.callee = this.#callee.record;
    // A machine_end_* verdict waits for the end of the machine's greeting: its beep, or its `amd` step.
    if (this.#setup.amdCallback && !scenario.answeredBy.startsWith('machine_end_')) {
      void this.#sleep(this.#deps.timing.amdHumanMs).then(() => !this.ended && this.#postAmd(scenario.answeredBy));
    }
    if (this.#setup.timeLimitS !== undefined) void this.#sleep(this.#setup.timeLimitS * 1000).then(() => this.#end('completed', 'carrier'));
  }

  #dtmf(digit: string): void {
    this.#streamDtmf?.(digit);
  }

  /** Runs a TwiML document; stops when a newer document (`redirect`) or the call end supersedes it. */
  async #execute(xml: string, generation: number): Promise<void> {
    this.record.twiml.push(xml);
    const verbs = parseTwiml(xml);
    if (typeof verbs === 'string') {
      this.record.twimlErrors.push(verbs);
      return this.#end('completed', 'twiml');
    }
    for (const verb of verbs) {
      if (generation !== this.#generation || this.ended) return;
      if (verb.verb === 'Hangup' || verb.verb === 'Reject') return this.#end('completed', 'twiml');
      await this.#run(verb);
    }
    if (generation !== this.#generation || this.ended) return;
    this.#end('completed', this.#streamEnd === 'server-closed' ? 'server' : 'twiml');
  }

  async #run(verb: TwimlVerb): Promise<void> {
    switch (verb.verb) {
      case 'Connect':
        if (verb.stream) await this.#runStream(verb.stream);
        return;
      case 'Say':
        this.record.said.push(verb.text);
        return this.#sleep(verb.text.length * this.#deps.timing.sayMsPerChar);
      case 'Pause':
        return this.#sleep(verb.lengthS * 1000);
      case 'Dial':
        this.record.dialed = { number: verb.number, ...(verb.callerId && { callerId: verb.callerId }), atMs: this.#elapsed() };
        return this.#sleep(this.#deps.timing.transferTalkMs);
      default:
        this.record.twimlErrors.push(`unsupported verb <${verb.verb === 'unsupported' ? verb.name : verb.verb}>`);
    }
  }

  #runStream(twimlStream: TwimlStream): Promise<void> {
    const callee = this.#callee;
    if (!callee) {
      this.record.twimlErrors.push('<Connect><Stream> on a call nobody answered');
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (reason: 'server-closed' | 'error' | 'stopped') => {
        this.#streamEnd = reason;
        this.#stopStream = undefined;
        this.#streamDtmf = undefined;
        resolve();
      };
      const stream = new SandboxMediaStream(twimlStream, {
        scheduler: this.#deps.scheduler,
        authToken: this.#deps.authToken,
        accountSid: this.#deps.accountSid,
        callSid: this.record.sid,
        party: callee,
        elapsedMs: () => this.#elapsed(),
        log: this.#deps.log,
        onEnd: done,
      });
      this.#stopStream = () => {
        stream.stop();
        done('stopped');
      };
      this.#streamDtmf = (digit) => stream.sendDtmf(digit);
      this.record.streams.push(stream.record);
      stream.connect();
    });
  }

  #status(status: CallProgressStatus): void {
    this.record.status = status;
    this.record.statusHistory.push({ status, atMs: this.#elapsed() });
    const event = status === 'in-progress' ? 'answered' : TERMINAL_CALL_STATUSES.has(status) ? 'completed' : status;
    if (!this.#setup.statusCallback || !this.#setup.statusEvents.has(event)) return;
    const params = {
      ...callParams(this.record, status),
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(this.#sequence++),
      Timestamp: new Date().toUTCString(),
    };
    if (status === 'completed')
      Object.assign(params, {
        CallDuration: String(this.record.durationS ?? 0),
        Duration: String(Math.ceil((this.record.durationS ?? 0) / 60)),
      });
    if (SIP_CODES[status] !== undefined) Object.assign(params, { SipResponseCode: String(SIP_CODES[status]) });
    this.#queueCallback('status', this.#setup.statusCallback, this.#setup.statusCallbackMethod, params);
  }

  #postAmd(answeredBy: AnsweredBy): void {
    const amd = this.#setup.amdCallback;
    if (!amd || this.record.amd) return;
    this.record.amd = { answeredBy, atMs: this.#elapsed() };
    const detection = String(Math.round(this.#elapsed() - (this.record.answeredAtMs ?? 0)));
    this.#queueCallback('amd', amd.url, amd.method, {
      AccountSid: this.#deps.accountSid,
      CallSid: this.record.sid,
      AnsweredBy: answeredBy,
      MachineDetectionDuration: detection,
    });
  }

  /** Callbacks go out one at a time, in order (Twilio's can race; ordered is easier to observe). */
  #queueCallback(kind: CallbackRecord['kind'], url: string, method: 'GET' | 'POST', params: Record<string, string>): void {
    const entry: CallbackRecord = { kind, url, method, params, signature: '', atMs: this.#elapsed() };
    this.record.callbacks.push(entry);
    this.#callbacks = this.#callbacks.then(async () => {
      try {
        const { signature, response } = await sendSigned(this.#deps.authToken, url, method, params, this.#deps.callbackTimeoutMs);
        Object.assign(entry, { signature, httpStatus: response.status });
      } catch (error) {
        entry.error = String(error);
      }
    });
  }

  /**
   * Fetches TwiML from the `Url` / voice webhook; when that fails (no answer, non-2xx) and the
   * number has a fallback URL, Twilio POSTs it once with `ErrorCode` 11200 (HTTP retrieval failure)
   * and `ErrorUrl`. Undefined (and the call ended) when nothing answered with TwiML.
   */
  async #fetchTwiml(callStatus: string): Promise<string | undefined> {
    const url = this.#setup.url;
    if (!url) return void this.#end('failed', 'carrier');
    const params = callParams(this.record, callStatus);
    const first = await this.#request(url, this.#setup.method, params);
    if (first.twiml !== undefined) return first.twiml;
    const fallback = this.#setup.fallbackUrl;
    if (fallback) {
      const second = await this.#request(fallback, 'POST', { ...params, ErrorCode: '11200', ErrorUrl: url });
      if (second.twiml !== undefined) return second.twiml;
      this.record.twimlErrors.push(`could not fetch TwiML from ${fallback}: ${second.error}`);
    }
    this.record.twimlErrors.push(`could not fetch TwiML from ${url}: ${first.error}`);
    this.#end('completed', 'carrier');
    return undefined;
  }

  /** One signed TwiML request, recorded as a `voice` callback. */
  async #request(url: string, method: 'GET' | 'POST', params: Record<string, string>): Promise<{ twiml?: string; error?: string }> {
    const entry: CallbackRecord = { kind: 'voice', url, method, params, signature: '', atMs: this.#elapsed() };
    this.record.callbacks.push(entry);
    try {
      const { signature, response } = await sendSigned(this.#deps.authToken, url, method, params, this.#deps.callbackTimeoutMs);
      Object.assign(entry, { signature, httpStatus: response.status });
      if (response.status >= 200 && response.status < 300) return { twiml: response.body };
      entry.error = `HTTP ${response.status}`;
    } catch (error) {
      entry.error = String(error);
    }
    return { error: entry.error };
  }

  #end(status: CallProgressStatus, by: NonNullable<SandboxCallRecord['endedBy']>): void {
    if (this.ended) return;
    this.#generation++;
    this.#stopStream?.();
    for (const handle of this.#timers) this.#deps.timers.clearTimeout(handle);
    this.#timers.clear();
    this.record.endedAtMs = this.#elapsed();
    this.record.endedBy = by;
    this.#callee?.closeRecording(this.#deps.utterances?.spoken?.(this.record.sid) ?? []);
    this.#deps.utterances?.forget?.(this.record.sid);
    if (this.record.answeredAtMs !== undefined)
      this.record.durationS = Math.ceil((this.record.endedAtMs - this.record.answeredAtMs) / 1000);
    this.#status(status);
  }
}
