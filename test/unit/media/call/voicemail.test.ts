import { describe, expect, it } from 'vitest';
import { TimerSet } from '../../../../media-service/src/call/timer-set';
import { Voicemail } from '../../../../media-service/src/call/voicemail';
import { FakeClock } from '../support/fake-clock';

function rig(options: { enabled?: boolean; message?: string; endingTaken?: boolean } = {}) {
  const clock = new FakeClock();
  const done: string[] = [];
  let release: () => void = () => undefined;
  const voicemail = new Voicemail({
    enabled: options.enabled ?? true,
    message: options.message ?? 'Please call us back.',
    quietMs: 2500,
    timers: new TimerSet(clock.timers),
    hooks: {
      ending: () => Boolean(options.endingTaken),
      claimEnding: () => undefined,
      silenceAssistant: () => void done.push('silenced'),
      say: (text) => {
        done.push(`say:${text}`);
        return new Promise<void>((resolve) => (release = resolve));
      },
      finish: () => void done.push('finish'),
    },
  });
  return {
    clock,
    done,
    voicemail,
    played: async () => {
      release();
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

describe('Voicemail', () => {
  it('AMD machine_end_beep: silences the assistant, leaves the message at once, then ends', async () => {
    // Arrange
    const { done, voicemail, played } = rig();
    // Act
    voicemail.onAmd('machine_end_beep');
    await played();
    // Assert
    expect(done).toEqual(['silenced', 'say:Please call us back.', 'finish']);
  });

  it('AMD machine_start: waits for the greeting to fall quiet, restarting on more speech', () => {
    // Arrange
    const { clock, done, voicemail } = rig();
    // Act
    voicemail.onAmd('machine_start');
    clock.advance(2000);
    voicemail.onSpeechStarted();
    voicemail.onCallerTurn("you've reached Jordan, leave a message", 1);
    clock.advance(2000);
    const before = [...done];
    clock.advance(600);
    // Assert
    expect(before).toEqual(['silenced']);
    expect(done).toEqual(['silenced', 'say:Please call us back.']);
  });

  it.each([
    ['a voicemail-sounding first turn is taken', "Hi, you've reached Jordan. Please leave a message after the tone.", 1, true],
    ['an ordinary first turn is not', 'Hello, this is Sam speaking.', 1, false],
    ['a voicemail-sounding third turn is not (a person quoting one)', 'leave a message after the tone', 3, false],
  ])('caller turns: %s', (_name, text, turn, taken) => {
    // Arrange
    const { voicemail } = rig();
    // Act / Assert
    expect(voicemail.onCallerTurn(text, turn)).toBe(taken);
    expect(voicemail.active).toBe(taken);
  });

  it.each([
    ['no message: hangs up as soon as a machine is known', { message: '' }, 'machine_end_beep', ['silenced', 'finish']],
    ['fax: hangs up without a message', {}, 'fax', ['silenced', 'finish']],
    ['detection off (inbound, or voicemail_detection false): nothing happens', { enabled: false }, 'machine_end_beep', []],
    ['a person: nothing happens', {}, 'human', []],
    ['the call is already ending for another reason: nothing happens', { endingTaken: true }, 'machine_end_beep', []],
  ] as const)('%s', (_name, options, answeredBy, expected) => {
    // Arrange
    const { done, voicemail } = rig(options);
    // Act
    voicemail.onAmd(answeredBy);
    // Assert
    expect(done).toEqual(expected);
  });
});

describe('TimerSet', () => {
  it('replaces a timer by name, clears all but the kept ones, and bounds a wait', async () => {
    // Arrange
    const clock = new FakeClock();
    const timers = new TimerSet(clock.timers);
    const fired: string[] = [];
    // Act
    timers.set('a', 100, () => fired.push('a1'));
    timers.set('a', 200, () => fired.push('a2'));
    timers.set('keep', 50, () => fired.push('keep'));
    timers.set('drop', 50, () => fired.push('drop'));
    timers.clear(['keep', 'a']);
    clock.advance(300);
    const waited = timers.waitAtMost(new Promise<void>(() => undefined), 1000);
    clock.advance(1000);
    await waited;
    // Assert
    expect(fired).toEqual(['keep', 'a2']);
  });
});
