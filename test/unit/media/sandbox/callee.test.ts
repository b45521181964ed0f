import { describe, expect, it } from 'vitest';
import { FRAME_MS, mulawRms } from '../../../../media-service/src/audio/mulaw';
import { SILENCE_FRAME, SimulatedCallee, type CalleeLine } from '../../../../media-service/src/sandbox/callee';
import { scenario, step, type ScenarioStep } from '../../../../media-service/src/sandbox/scenario-script';

/** A line that records what the callee did to the call. */
function line() {
  const events: string[] = [];
  const calleeLine: CalleeLine = {
    callSid: 'CA1',
    sendDtmf: (digit) => void events.push(`dtmf ${digit}`),
    hangup: () => void events.push('hangup'),
    beepEnded: () => void events.push('beep ended'),
    amdConcluded: () => void events.push('amd concluded'),
  };
  return { events, calleeLine };
}

/** What the callee hears at each audio time: loud assistant speech inside the given windows. */
const assistantSpeaks =
  (...windows: [number, number][]) =>
  (ms: number) =>
    windows.some(([from, to]) => ms > from && ms <= to) ? 2000 : null;

/** Drives the callee frame by frame on the audio clock; returns each frame with its time. */
function drive(callee: SimulatedCallee, toMs: number, heard: (ms: number) => number | null = () => null, fromMs = 0) {
  const frames: { atMs: number; frame: Uint8Array }[] = [];
  for (let ms = fromMs; ms < toMs; ms += FRAME_MS) frames.push({ atMs: ms, frame: callee.nextFrame(ms, heard(ms)) });
  return frames;
}

const loudTimes = (frames: { atMs: number; frame: Uint8Array }[]) => frames.filter((f) => mulawRms(f.frame) >= 500).map((f) => f.atMs);

function callee(steps: readonly ScenarioStep[], options: { maxCallMs?: number } = {}) {
  const { events, calleeLine } = line();
  const said: string[] = [];
  const person = new SimulatedCallee(scenario('test', steps, options), calleeLine, {
    utterances: { push: (_sid, text) => void said.push(text) },
  });
  return { person, events, said };
}

describe('SimulatedCallee', () => {
  it('says a line as speech-like audio, announced on the board before it plays', () => {
    // Arrange
    const { person, said } = callee([step.say('Hello there.', { durationMs: 400 })]);
    // Act
    const frames = drive(person, 1000);
    // Assert
    expect(said).toEqual(['Hello there.']);
    const loud = loudTimes(frames);
    expect(loud).toHaveLength(20);
    expect(loud[0]).toBe(0);
    expect(loud.at(-1)).toBe(380);
    expect(frames.at(-1)!.frame).toBe(SILENCE_FRAME);
    expect(person.record.said).toEqual([{ text: 'Hello there.', startMs: 0, endMs: 400, bargeIn: false }]);
  });

  it('waits for the assistant to speak and then be quiet before its next line', () => {
    // Arrange
    const { person } = callee([
      step.say('Hi.', { durationMs: 400 }),
      step.waitForAssistant({ quietMs: 700 }),
      step.say('Yes.', { durationMs: 400 }),
    ]);
    // Act: the assistant talks over (600, 1000]
    drive(person, 3000, assistantSpeaks([600, 1000]));
    // Assert: last loud frame heard at 1000, so the next line starts 700 ms later
    expect(person.record.said.map((s) => s.startMs)).toEqual([0, 1700]);
    expect(person.record.heardSpeech).toEqual([{ startMs: 600, endMs: 1000 }]);
    expect(person.record.steps.map((s) => s.kind)).toEqual(['say', 'waitForAssistant', 'say']);
  });

  it('does not talk over an assistant still speaking when the wait times out: it speaks once the assistant is quiet', () => {
    // Arrange
    const { person } = callee([step.waitForAssistant({ timeoutMs: 500, quietMs: 700 }), step.say('Hello?', { durationMs: 400 })]);
    // Act: a long greeting over (100, 1500]
    drive(person, 3000, assistantSpeaks([100, 1500]));
    // Assert: past the timeout while it spoke, the callee waited; it carried on once it heard quiet
    expect(person.record.said[0]!.startMs).toBeGreaterThan(1500);
  });

  it('gives up waiting after the timeout and carries on', () => {
    // Arrange
    const { person } = callee([step.waitForAssistant({ timeoutMs: 500 }), step.say('Hello?', { durationMs: 400 })]);
    // Act
    drive(person, 1500);
    // Assert
    expect(person.record.steps[0]).toMatchObject({ kind: 'waitForAssistant', timedOut: true, endMs: 500 });
    expect(person.record.said[0]!.startMs).toBe(500);
  });

  it('barges in once the assistant has been talking for the given time', () => {
    // Arrange
    const { person, said } = callee([step.bargeIn('Wait, stop.', { afterAssistantStartsMs: 300, durationMs: 400 })]);
    // Act: the assistant talks from 500 to 2000
    const frames = drive(person, 2000, assistantSpeaks([480, 2000]));
    // Assert: first heard at 500 (the frame that played over (480, 500]), so due at 780
    expect(person.record.said).toEqual([{ text: 'Wait, stop.', startMs: 780, endMs: 1180, bargeIn: true }]);
    expect(loudTimes(frames)[0]).toBe(780);
    expect(said).toEqual(['Wait, stop.']);
  });

  it('presses keys one gap apart, and a following wait waits for the reply to the keys', () => {
    // Arrange
    const { person, events } = callee([
      step.say('Hi.', { durationMs: 400 }),
      step.waitForAssistant({ quietMs: 300 }),
      step.dtmf('12#', { gapMs: 100 }),
      step.waitForAssistant({ quietMs: 300 }),
      step.hangup(),
    ]);
    // Act: the assistant answers the greeting (500–800) and the keys (1400–1600)
    drive(person, 3000, assistantSpeaks([500, 800], [1400, 1600]));
    // Assert
    expect(person.record.dtmf).toEqual([
      { digit: '1', atMs: 1100 },
      { digit: '2', atMs: 1200 },
      { digit: '#', atMs: 1300 },
    ]);
    expect(events).toEqual(['dtmf 1', 'dtmf 2', 'dtmf #', 'hangup']);
    expect(person.record.hungUpAtMs).toBe(1900);
  });

  it('plays a beep and reports its end (the AMD machine_end_beep moment)', () => {
    // Arrange
    const { person, events } = callee([step.beep({ durationMs: 200 }), step.silence()]);
    // Act
    const frames = drive(person, 1000);
    // Assert
    expect(loudTimes(frames)).toEqual([0, 20, 40, 60, 80, 100, 120, 140, 160, 180]);
    expect(events).toEqual(['beep ended']);
    expect(person.ended).toBe(false);
  });

  it('hangs up once, then only sends silence', () => {
    // Arrange
    const { person, events } = callee([step.pause(200), step.hangup(), step.say('never said')]);
    // Act
    const frames = drive(person, 1000);
    // Assert
    expect(events).toEqual(['hangup']);
    expect(person.ended).toBe(true);
    expect(person.record.hungUpAtMs).toBe(200);
    expect(person.record.said).toEqual([]);
    expect(frames.every((f) => f.frame === SILENCE_FRAME)).toBe(true);
  });

  it('hangs up at the safety limit even in the middle of a silence', () => {
    // Arrange
    const { person, events } = callee([step.silence()], { maxCallMs: 600 });
    // Act
    drive(person, 2000);
    // Assert
    expect(events).toEqual(['hangup']);
    expect(person.record.hungUpAtMs).toBe(600);
  });

  it('keeps its own lines apart by the minimum gap', () => {
    // Arrange
    const { person } = callee([step.say('One.', { durationMs: 400 }), step.say('Two.', { durationMs: 400 })]);
    // Act
    drive(person, 2000);
    // Assert
    expect(person.record.said.map((s) => [s.startMs, s.endMs])).toEqual([
      [0, 400],
      [700, 1100],
    ]);
  });

  it('replyOnly: after talking over the assistant, waits for speech that starts once its own words ended', () => {
    // Arrange: 3 s of question barged in 200 ms into the assistant's speech, then a wait for the reply
    const { person } = callee([
      step.bargeIn('Are you open on Saturday?', { afterAssistantStartsMs: 200, durationMs: 3000 }),
      step.waitForAssistant({ quietMs: 500, replyOnly: true }),
      step.say('Thanks.', { durationMs: 400 }),
    ]);
    // Act: the assistant talks over (0, 1000] (what was talked over), then replies over (4000, 5000]
    drive(person, 7000, assistantSpeaks([0, 1000], [4000, 5000]));
    // Assert: the question ran (200, 3200]; the next line waits for the reply's end (without replyOnly: 3500, at once)
    expect(person.record.said.map((s) => s.startMs)).toEqual([200, 5500]);
  });

  it('an answering machine: its amd step concludes detection, and record keeps what plays until the end', () => {
    // Arrange
    const { person, events } = callee([
      step.say('Leave a message.', { durationMs: 400 }),
      step.record({ maxMs: 1000 }),
      step.amd(),
      step.silence(),
    ]);
    // Act
    drive(person, 600);
    const played = new Uint8Array(160).fill(7);
    person.recordPlayed(played, 600);
    person.recordPlayed(played, 1500);
    person.closeRecording([]);
    // Assert: recording from 400 ms (as its greeting ends), for at most 1 s
    expect(events).toEqual(['amd concluded']);
    expect(person.recording).toBe(true);
    expect(person.record.recorded).toMatchObject({ startMs: 400, audioMs: 20, pieces: [], text: '' });
  });
});
