import type { AnsweredBy } from '../../ports/telephony';
import { soundsLikeVoicemail } from '../turn-taking';

/**
 * Answering machines on outbound calls, as a pure reducer (docs/design.md "How a call opens"):
 * the carrier's AMD verdict, or a machine-sounding caller turn among the first two, hands the
 * call to voicemail; the assistant falls silent, waits for the beep (a `machine_end_*` verdict) or
 * for the machine's greeting to fall quiet, leaves `voicemail_message` whole and ends `voicemail`.
 * No recording notice is said to a machine (docs/decisions.md "What a voicemail owes the law").
 */

/** From the call's direction and config. */
export interface VoicemailSettings {
  /** Outbound call with `voicemail_detection` on. */
  enabled: boolean;
  /** `voicemail_message` ('' hangs up as soon as a machine is known). */
  message: string;
  /** Quiet after the machine's last words before the message, when no beep is reported. */
  quietMs: number;
}

export type VoicemailPhase = 'none' | 'waiting' | 'leaving';

/**
 * What voicemail handling hears. `ending`: the call is already ending for another reason (a machine
 * found then changes nothing). `userTurns`: caller turns so far, this one included.
 */
export type VoicemailEvent =
  | { type: 'amd'; answeredBy: AnsweredBy; ending: boolean }
  | { type: 'speech_started' }
  | { type: 'caller_turn'; text: string; userTurns: number; ending: boolean }
  | { type: 'quiet' };

/**
 * `claim`: the call ends `voicemail` (every other rule stops); `silence`: stop the assistant
 * mid-word, notice included; `arm`/`cancel`: the quiet timer; `leave`: say the message (bounded),
 * then finish; `finish`: end the call now.
 */
export type VoicemailEffect =
  | { type: 'claim' }
  | { type: 'silence' }
  | { type: 'arm'; ms: number }
  | { type: 'cancel' }
  | { type: 'leave'; text: string }
  | { type: 'finish' };

export interface VoicemailStep {
  phase: VoicemailPhase;
  effects: VoicemailEffect[];
  /** The event was a caller turn voicemail handling took (the conversation must not answer it). */
  took: boolean;
}

const same = (phase: VoicemailPhase, took = false): VoicemailStep => ({ phase, effects: [], took });

/** Voicemail's next phase and effects for `event`. */
export function reduceVoicemail(settings: VoicemailSettings, phase: VoicemailPhase, event: VoicemailEvent): VoicemailStep {
  switch (event.type) {
    case 'amd':
      if (!settings.enabled || event.ending) return same(phase);
      if (event.answeredBy === 'fax') return detected(settings, phase, { greetingOver: true, leaveMessage: false });
      if (!event.answeredBy.startsWith('machine_')) return same(phase);
      return detected(settings, phase, { greetingOver: event.answeredBy !== 'machine_start', leaveMessage: true });
    case 'speech_started':
      return phase === 'waiting' ? { phase, effects: [{ type: 'cancel' }], took: false } : same(phase);
    case 'caller_turn':
      if (phase === 'waiting') return { phase, effects: [{ type: 'arm', ms: settings.quietMs }], took: true };
      if (phase === 'leaving') return same(phase, true);
      if (!settings.enabled || event.ending || event.userTurns > 2 || !soundsLikeVoicemail(event.text)) return same(phase);
      return { ...detected(settings, phase, { greetingOver: false, leaveMessage: true }), took: true };
    case 'quiet':
      return phase === 'waiting' ? leave(settings) : same(phase);
  }
}

function detected(
  settings: VoicemailSettings,
  phase: VoicemailPhase,
  found: { greetingOver: boolean; leaveMessage: boolean },
): VoicemailStep {
  if (phase === 'leaving') return same(phase);
  const effects: VoicemailEffect[] = phase === 'none' ? [{ type: 'claim' }, { type: 'silence' }] : [];
  // Nothing to leave: the call ends now, and later verdicts or words change nothing.
  if (phase === 'none' && (settings.message === '' || !found.leaveMessage))
    return { phase: 'leaving', effects: [...effects, { type: 'finish' }], took: false };
  if (found.greetingOver) {
    const left = leave(settings);
    return { ...left, effects: [...effects, ...left.effects] };
  }
  return { phase: 'waiting', effects: [...effects, { type: 'arm', ms: settings.quietMs }], took: false };
}

function leave(settings: VoicemailSettings): VoicemailStep {
  return { phase: 'leaving', effects: [{ type: 'cancel' }, { type: 'leave', text: settings.message }], took: false };
}
