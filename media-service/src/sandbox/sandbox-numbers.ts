import { DEFAULT_CALLEE, INTERRUPTER, KEYPRESSER, PATIENT_CALLEE, SILENT } from './scenarios';
import { VOICEMAIL, VOICEMAIL_LONG, VOICEMAIL_NO_BEEP } from './machine-scenarios';
import { type Scenario } from './scenario-script';
import type { ProviderFault } from './provider-faults';

/**
 * The sandbox carrier's special numbers (docs/design.md "The local stack"). They sit in +1 500-555-00xx, the block
 * Twilio's own test credentials reserve for magic numbers, so they can never ring a real phone and
 * look familiar to Twilio developers. Every other number reaches the default callee.
 */

/** What dialling a number does. */
export type SandboxLine =
  | { kind: 'busy' }
  | { kind: 'no-answer' }
  | { kind: 'failed' }
  /** `fault`: the call's providers fail this way after the caller's first turn (`provider-faults.ts`). */
  | { kind: 'answer'; scenario: Scenario; fault?: ProviderFault };

/**
 * What the carrier's REST API answers a request to call the number: most numbers are placed; some
 * exercise the dialler's failure handling (docs/api-tour.md "A dial that fails").
 */
export type SandboxRefusal = { kind: 'throttled'; times: number } | { kind: 'server-error' };

/** One documented special number. */
export interface SandboxNumber {
  number: string;
  name: string;
  description: string;
  line: SandboxLine;
  /** The create-call request is refused before any call exists (then `line` once it is placed). */
  refusal?: SandboxRefusal;
}

/** The documented table (render it in the README from here). */
export const SANDBOX_NUMBERS: readonly SandboxNumber[] = [
  { number: '+15005550001', name: 'busy', description: 'Line busy: status `busy` right after `initiated`.', line: { kind: 'busy' } },
  {
    number: '+15005550002',
    name: 'no answer',
    description: 'Rings until the call `Timeout` (capped by the sandbox ring cap), then `no-answer`.',
    line: { kind: 'no-answer' },
  },
  { number: '+15005550003', name: 'voicemail', description: VOICEMAIL.description, line: { kind: 'answer', scenario: VOICEMAIL } },
  { number: '+15005550004', name: 'interrupter', description: INTERRUPTER.description, line: { kind: 'answer', scenario: INTERRUPTER } },
  { number: '+15005550005', name: 'silent', description: SILENT.description, line: { kind: 'answer', scenario: SILENT } },
  { number: '+15005550006', name: 'keypad', description: KEYPRESSER.description, line: { kind: 'answer', scenario: KEYPRESSER } },
  {
    number: '+15005550007',
    name: 'unreachable',
    description: 'The carrier cannot route the call: status `failed`.',
    line: { kind: 'failed' },
  },
  {
    number: '+15005550008',
    name: 'carrier throttling',
    description:
      'The create-call request answers HTTP 429 (Twilio 20429) twice, then the call is placed to the default callee (the count starts again after each placed call).',
    line: { kind: 'answer', scenario: DEFAULT_CALLEE },
    refusal: { kind: 'throttled', times: 2 },
  },
  {
    number: '+15005550009',
    name: 'carrier error',
    description:
      'The create-call request answers HTTP 500 (Twilio 20500): the carrier may or may not have placed it, so the call ends `error` at once.',
    line: { kind: 'failed' },
    refusal: { kind: 'server-error' },
  },
  faultNumber(
    '+15005550010',
    'recogniser drops',
    "The patient callee; after the caller's first turn the recogniser's socket drops once (Flux; OpenAI transcription with `transcriber.provider: openai`; in live mode the speech-to-speech socket, once the reply to that turn has started): the engine reconnects and hears the rest.",
    'stt-drop',
  ),
  faultNumber(
    '+15005550011',
    'voice drops',
    "The patient callee; the voice's (Aura) socket drops once in the middle of the reply to the caller's first turn: the engine reconnects and says the rest.",
    'tts-drop',
  ),
  faultNumber(
    '+15005550012',
    'model errors',
    "The patient callee; from the caller's first turn on, the model answers HTTP 500: `model.fallback` answers, else the caller hears the fallback line and the call ends `error`.",
    'llm-5xx',
  ),
  faultNumber(
    '+15005550013',
    'model stalls',
    "The patient callee; from the caller's first turn on, the model streams a few words of each reply, then nothing: as for model errors, once the stall is noticed.",
    'llm-stall',
  ),
  faultNumber(
    '+15005550014',
    'tool hangs',
    "The patient callee; the model calls the assistant's first custom tool on the caller's first turn: a tool whose server never answers times out, the caller hears a filler and the model an error.",
    'tool-hang',
  ),
  {
    number: '+15005550015',
    name: 'voicemail, long greeting',
    description: VOICEMAIL_LONG.description,
    line: { kind: 'answer', scenario: VOICEMAIL_LONG },
  },
  {
    number: '+15005550016',
    name: 'voicemail, no beep',
    description: VOICEMAIL_NO_BEEP.description,
    line: { kind: 'answer', scenario: VOICEMAIL_NO_BEEP },
  },
];

/** A number whose callee is the patient one and whose providers fail mid-call. */
function faultNumber(number: string, name: string, description: string, fault: ProviderFault): SandboxNumber {
  return { number, name, description, line: { kind: 'answer', scenario: PATIENT_CALLEE, fault } };
}

const BY_NUMBER = new Map(SANDBOX_NUMBERS.map((entry) => [entry.number, entry.line]));

/** Any number that is not special: the default callee. */
export const DEFAULT_LINE: SandboxLine = { kind: 'answer', scenario: DEFAULT_CALLEE };

const REFUSALS = new Map(SANDBOX_NUMBERS.flatMap((entry) => (entry.refusal ? [[entry.number, entry.refusal] as const] : [])));

/** How the carrier's REST API refuses a request to call `number`, if it does. */
export function sandboxRefusalFor(number: string): SandboxRefusal | undefined {
  return REFUSALS.get(number);
}

/** The provider fault of calls to or from `number`, when it is a fault number. */
export function sandboxFaultFor(number: string): ProviderFault | undefined {
  const line = BY_NUMBER.get(number);
  return line?.kind === 'answer' ? line.fault : undefined;
}

/** The fault of a fault number, as a field to spread into a line (`{}` for any other number). */
export function sandboxFaultField(number: string): { fault?: ProviderFault } {
  const fault = sandboxFaultFor(number);
  return fault ? { fault } : {};
}

/** What dialling `number` does in the sandbox. */
export function sandboxLineFor(number: string): SandboxLine {
  return BY_NUMBER.get(number) ?? DEFAULT_LINE;
}
