import type { AnsweredBy, CallProgressStatus } from '../ports/telephony';
import type { CalleeRecord } from './callee';
import type { CallbackRecord } from './carrier-callbacks';
import type { StreamRecord } from './carrier-stream';
import type { SandboxLine } from './sandbox-numbers';
import type { Scenario } from './scenario-script';

/** Shared shapes of the sandbox carrier: timing, timers, call setup and the observable call record. */

/** Simulated network timing (ms). Defaults keep a sandbox call snappy but ordered like Twilio's. */
export interface CarrierTiming {
  /** queued → initiated → ringing. */
  dialMs: number;
  /** ringing → answered. */
  answerMs: number;
  /** initiated → busy / failed. */
  busyMs: number;
  /** Cap on the requested `Timeout` before `no-answer` (a real 60 s ring would stall demos and tests). */
  maxRingMs: number;
  /** answered → AMD verdict for humans (real async AMD takes ~2–4 s of speech). */
  amdHumanMs: number;
  /** How long a transferred (`<Dial>`) leg talks before it completes. */
  transferTalkMs: number;
  /** `<Say>` speaking pace. */
  sayMsPerChar: number;
}

/** The defaults of {@link CarrierTiming}. */
export const DEFAULT_CARRIER_TIMING: CarrierTiming = {
  dialMs: 100,
  answerMs: 400,
  busyMs: 300,
  maxRingMs: 3000,
  amdHumanMs: 1500,
  transferTalkMs: 1000,
  sayMsPerChar: 60,
};

/** One-shot timers (real or fake). */
export interface CarrierTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers, the default {@link CarrierTimers}. */
export const REAL_CARRIER_TIMERS: CarrierTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** How a call was set up (from the create-call form, or `startInboundCall`). */
export interface CallSetup {
  direction: 'outbound-api' | 'inbound';
  to: string;
  from: string;
  twiml?: string;
  /** TwiML `Url` (outbound) or the voice webhook (inbound). */
  url?: string;
  /** The number's Voice Fallback URL (inbound): requested once when `url` fails. */
  fallbackUrl?: string;
  method: 'GET' | 'POST';
  statusCallback?: string;
  statusCallbackMethod: 'GET' | 'POST';
  statusEvents: ReadonlySet<string>;
  amdCallback?: { url: string; method: 'GET' | 'POST' };
  timeoutS: number;
  timeLimitS?: number;
  line: SandboxLine;
}

/** Everything observable about one sandbox call. Times are ms since the call was created. */
export interface SandboxCallRecord {
  sid: string;
  accountSid: string;
  direction: 'outbound-api' | 'inbound';
  to: string;
  from: string;
  createdAt: Date;
  /** The carrier clock (`scheduler.now()`, performance.now() by default) when the call was created: `atMs` values count from it. */
  clockStartMs: number;
  status: CallProgressStatus;
  statusHistory: { status: CallProgressStatus; atMs: number }[];
  scenario?: string;
  answeredAtMs?: number;
  endedAtMs?: number;
  durationS?: number;
  endedBy?: 'api' | 'callee' | 'server' | 'twiml' | 'carrier';
  twiml: string[];
  twimlErrors: string[];
  said: string[];
  dialed?: { number: string; callerId?: string; atMs: number };
  amd?: { answeredBy: AnsweredBy; atMs: number };
  callbacks: CallbackRecord[];
  streams: StreamRecord[];
  callee?: CalleeRecord;
}

/** `startInboundCall` input: a simulated person calls one of our numbers. */
export interface InboundCallRequest {
  from: string;
  to: string;
  /** Our voice webhook (what the number's VoiceUrl would be). */
  voiceUrl: string;
  voiceMethod?: 'GET' | 'POST';
  /** The number's Voice Fallback URL (POST), requested once when `voiceUrl` fails or answers non-2xx. */
  voiceFallbackUrl?: string;
  /** What the caller does once connected; default: the default callee script. */
  scenario?: Scenario;
  statusCallbackUrl?: string;
  /** Default: all of initiated ringing answered completed. */
  statusEvents?: readonly string[];
}
