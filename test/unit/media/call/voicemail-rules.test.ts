import { describe, expect, it } from 'vitest';
import {
  reduceVoicemail,
  type VoicemailEffect,
  type VoicemailEvent,
  type VoicemailPhase,
  type VoicemailSettings,
} from '../../../../media-service/src/call/rules/voicemail';

const ON: VoicemailSettings = { enabled: true, message: 'Please call us back.', quietMs: 2500 };
const GREETING = "Hi, you've reached Jordan Lee. Please leave a message after the tone.";

const amd = (answeredBy: Extract<VoicemailEvent, { type: 'amd' }>['answeredBy'], ending = false): VoicemailEvent => ({
  type: 'amd',
  answeredBy,
  ending,
});
const turn = (text: string, userTurns = 1, ending = false): VoicemailEvent => ({ type: 'caller_turn', text, userTurns, ending });
const speech: VoicemailEvent = { type: 'speech_started' };
const quiet: VoicemailEvent = { type: 'quiet' };

const CLAIM: VoicemailEffect = { type: 'claim' };
const SILENCE: VoicemailEffect = { type: 'silence' };
const CANCEL: VoicemailEffect = { type: 'cancel' };
const FINISH: VoicemailEffect = { type: 'finish' };
const ARM: VoicemailEffect = { type: 'arm', ms: 2500 };
const LEAVE: VoicemailEffect = { type: 'leave', text: 'Please call us back.' };

function run(settings: VoicemailSettings, events: readonly VoicemailEvent[]) {
  let phase: VoicemailPhase = 'none';
  const effects: VoicemailEffect[] = [];
  const took: boolean[] = [];
  for (const event of events) {
    const step = reduceVoicemail(settings, phase, event);
    phase = step.phase;
    effects.push(...step.effects);
    took.push(step.took);
  }
  return { phase, effects, took };
}

describe('reduceVoicemail', () => {
  describe.each([
    {
      name: 'AMD beep: the assistant (and a notice playing) falls silent, the message is left whole',
      events: [amd('machine_end_beep')],
      effects: [CLAIM, SILENCE, CANCEL, LEAVE],
      phase: 'leaving',
    },
    {
      name: 'AMD machine_end_silence (no beep): the message is left at once',
      events: [amd('machine_end_silence')],
      effects: [CLAIM, SILENCE, CANCEL, LEAVE],
      phase: 'leaving',
    },
    {
      name: 'AMD machine_start: waits for the greeting to fall quiet, restarting on speech',
      events: [amd('machine_start'), speech, turn(GREETING), quiet],
      effects: [CLAIM, SILENCE, ARM, CANCEL, ARM, CANCEL, LEAVE],
      phase: 'leaving',
    },
    {
      name: 'words like a machine, no AMD: silent, then the message after the quiet',
      events: [turn(GREETING), quiet],
      effects: [CLAIM, SILENCE, ARM, CANCEL, LEAVE],
      phase: 'leaving',
    },
    {
      name: 'words, then the beep verdict: the message at the beep, not twice',
      events: [turn(GREETING), amd('machine_end_beep'), quiet],
      effects: [CLAIM, SILENCE, ARM, CANCEL, LEAVE],
      phase: 'leaving',
    },
    { name: 'fax: hangs up, no message', events: [amd('fax')], effects: [CLAIM, SILENCE, FINISH], phase: 'leaving' },
    {
      name: 'no message configured: hangs up as soon as a machine is known',
      settings: { ...ON, message: '' },
      events: [amd('machine_start'), quiet, amd('machine_end_beep')],
      effects: [CLAIM, SILENCE, FINISH],
      phase: 'leaving',
    },
    { name: 'a person: nothing happens', events: [amd('human'), turn('Hello?')], effects: [], phase: 'none' },
    { name: 'a third turn is never checked (a person reading a message aloud)', events: [turn(GREETING, 3)], effects: [], phase: 'none' },
    {
      name: 'detection off (inbound): nothing happens',
      settings: { ...ON, enabled: false },
      events: [amd('machine_end_beep'), turn(GREETING)],
      effects: [],
      phase: 'none',
    },
    {
      name: 'the call already ending for another reason: a machine changes nothing',
      events: [amd('machine_end_beep', true), turn(GREETING, 1, true)],
      effects: [],
      phase: 'none',
    },
    {
      name: 'while the message plays, more words or verdicts change nothing',
      events: [amd('machine_end_beep'), turn('beep'), amd('machine_end_other'), speech],
      effects: [CLAIM, SILENCE, CANCEL, LEAVE],
      phase: 'leaving',
    },
  ] as { name: string; settings?: VoicemailSettings; events: VoicemailEvent[]; effects: VoicemailEffect[]; phase: VoicemailPhase }[])(
    '$name',
    ({ settings = ON, events, effects, phase }) => {
      it('has the expected effects and phase', () => {
        // Act
        const result = run(settings, events);
        // Assert
        expect(result.effects).toEqual(effects);
        expect(result.phase).toBe(phase);
      });
    },
  );

  it('takes every caller turn once a machine is on the line, so none is answered', () => {
    // Act
    const { took } = run(ON, [turn(GREETING), turn('beep', 2), quiet, turn('anything', 3)]);
    // Assert
    expect(took).toEqual([true, true, false, true]);
  });
});
