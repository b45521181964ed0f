import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FLUX_TUNING,
  eagerSilenceMs,
  eotSilenceMs,
  FluxTurnDetector,
  FrameSplitter,
  type FluxThresholds,
  type FluxTurnEvent,
} from '../../../../media-service/src/sandbox/flux-turn-detector';
import { MULAW_SILENCE, synthesizeSpeechLike } from '../../../../media-service/src/sandbox/mulaw-signal';

type Part = ['speech' | 'silence', number];

/** Runs audio (the sandbox's own speech-like synthesis and μ-law silence) through a detector. */
function run(parts: Part[], texts: string[], thresholds: Partial<FluxThresholds> = {}): FluxTurnEvent[] {
  const queue = [...texts];
  const detector = new FluxTurnDetector({ eotThreshold: 0.7, eotTimeoutMs: 5000, ...thresholds }, DEFAULT_FLUX_TUNING, () => queue.shift());
  const splitter = new FrameSplitter();
  const events: FluxTurnEvent[] = [];
  for (const [kind, ms] of parts) {
    const audio = kind === 'speech' ? synthesizeSpeechLike(ms, 3) : new Uint8Array(ms * 8).fill(MULAW_SILENCE);
    for (const frame of splitter.push(audio.subarray(0, ms * 8))) events.push(...detector.push(frame));
  }
  return events;
}

const names = (events: FluxTurnEvent[]) => events.filter((e) => e.event !== 'Update').map((e) => e.event);

describe('eotSilenceMs / eagerSilenceMs', () => {
  it.each([
    { eot: 0.5, silence: 250 },
    { eot: 0.7, silence: 400 },
    { eot: 0.9, silence: 550 },
    { eot: 1.0, silence: 5000 },
  ])('eot_threshold $eot ends a turn after $silence ms of silence', ({ eot, silence }) => {
    expect(eotSilenceMs({ eotThreshold: eot, eotTimeoutMs: 5000 })).toBe(silence);
  });

  it.each([
    { eager: 0.3, silence: 160 },
    { eager: 0.5, silence: 200 },
    { eager: 0.9, silence: 280 },
  ])('eager_eot_threshold $eager fires after $silence ms, before end of turn', ({ eager, silence }) => {
    expect(eagerSilenceMs({ eotThreshold: 0.7, eagerEotThreshold: eager, eotTimeoutMs: 5000 })).toBe(silence);
  });
});

describe('FluxTurnDetector', () => {
  it.each([0.5, 0.7, 0.9])('with eot_threshold %f: StartOfTurn at the speech onset, EndOfTurn after the derived silence', (eot) => {
    // Act
    const events = run(
      [
        ['silence', 300],
        ['speech', 1200],
        ['silence', 800],
      ],
      ['book a cleaning please'],
      { eotThreshold: eot },
    );
    // Assert
    expect(names(events)).toEqual(['StartOfTurn', 'EndOfTurn']);
    const [start, end] = [events[0]!, events.at(-1)!];
    expect(start.windowStartMs).toBe(300);
    expect(end).toMatchObject({ transcript: 'book a cleaning please', turnIndex: 0, windowStartMs: 300, trigger: 'model' });
    const frames = Math.ceil(eotSilenceMs({ eotThreshold: eot, eotTimeoutMs: 5000 }) / 20);
    expect(end.windowEndMs).toBe(1500 + frames * 20);
    expect(end.words.at(-1)!.endMs).toBe(1500);
    expect(end.words.map((w) => w.word)).toEqual(['book', 'a', 'cleaning', 'please']);
  });

  it('sends Updates about every 250 ms of audio (whole frames) with a growing prefix, never the last word while speaking', () => {
    // Act
    const events = run(
      [
        ['speech', 2000],
        ['silence', 600],
      ],
      ['one two three four five six seven eight'],
    );
    // Assert
    const updates = events.filter((e) => e.event === 'Update');
    const times = updates.map((u) => u.windowEndMs);
    expect(times.slice(0, 4)).toEqual([300, 560, 820, 1080]);
    const lengths = updates.map((u) => u.words.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(Math.max(...updates.filter((u) => u.windowEndMs <= 2000).map((u) => u.words.length))).toBe(6);
    expect(updates.at(-1)!.transcript).toBe('one two three four five six seven eight');
  });

  it('eager path: EagerEndOfTurn (non-empty) → TurnResumed → EagerEndOfTurn → EndOfTurn equal to the last eager', () => {
    // Act
    const events = run(
      [
        ['speech', 800],
        ['silence', 300],
        ['speech', 600],
        ['silence', 700],
      ],
      ['I need to', 'reschedule'],
      { eagerEotThreshold: 0.5 },
    );
    // Assert
    expect(names(events)).toEqual(['StartOfTurn', 'EagerEndOfTurn', 'TurnResumed', 'EagerEndOfTurn', 'EndOfTurn']);
    const eager = events.filter((e) => e.event === 'EagerEndOfTurn');
    expect(eager.map((e) => e.transcript)).toEqual(['I need to', 'I need to reschedule']);
    expect(events.at(-1)!.transcript).toBe('I need to reschedule');
  });

  it('counts turns and pops one board text per turn', () => {
    // Act
    const events = run(
      [
        ['speech', 500],
        ['silence', 600],
        ['speech', 500],
        ['silence', 600],
      ],
      ['hello', 'yes'],
    );
    // Assert
    expect(events.filter((e) => e.event === 'EndOfTurn').map((e) => [e.turnIndex, e.transcript])).toEqual([
      [0, 'hello'],
      [1, 'yes'],
    ]);
  });

  it('ignores a 20 ms click and stays quiet during silence', () => {
    expect(
      run(
        [
          ['silence', 500],
          ['speech', 20],
          ['silence', 2000],
        ],
        ['never heard'],
      ),
    ).toEqual([]);
  });

  it('with nothing on the board: an empty transcript and no EagerEndOfTurn', () => {
    // Act
    const events = run(
      [
        ['speech', 600],
        ['silence', 600],
      ],
      [],
      { eagerEotThreshold: 0.4 },
    );
    // Assert
    expect(names(events)).toEqual(['StartOfTurn', 'EndOfTurn']);
    expect(events.at(-1)!.transcript).toBe('');
  });

  it('ForceEndTurn ends the open turn with trigger "manual"; finish() flushes an open turn', () => {
    // Arrange
    const detector = new FluxTurnDetector({ eotThreshold: 0.7, eotTimeoutMs: 5000 }, DEFAULT_FLUX_TUNING, () => 'press one');
    const speech = synthesizeSpeechLike(400);
    // Act
    for (let i = 0; i < speech.length; i += 160) detector.push(speech.subarray(i, i + 160));
    const forced = detector.forceEndTurn();
    // Assert
    expect(forced).toMatchObject([{ event: 'EndOfTurn', trigger: 'manual', transcript: 'press one' }]);
    expect(detector.finish()).toEqual([]);
  });

  it('is deterministic: the same audio gives the same events', () => {
    const parts: Part[] = [
      ['speech', 900],
      ['silence', 250],
      ['speech', 400],
      ['silence', 900],
    ];
    expect(run(parts, ['a b c', 'd e'], { eagerEotThreshold: 0.3 })).toEqual(run(parts, ['a b c', 'd e'], { eagerEotThreshold: 0.3 }));
  });
});
