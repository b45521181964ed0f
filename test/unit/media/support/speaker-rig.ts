import { Speaker } from '../../../../media-service/src/call/speaker';
import { Pacer, type PacerSink } from '../../../../media-service/src/pipeline/pacer';
import { FakeTextToSpeech } from './fake-tts';

/**
 * A Speaker wired to a hand-driven TTS and a real Pacer ticked by hand. The sink records what
 * the carrier would get (`a160` per frame, mark names, `clear`); the Speaker hears sent marks from
 * the pacer itself. The test plays the carrier by calling `speaker.onMark`.
 */
export function speakerRig(toSpeech: (text: string) => string = (text) => text, options: { kick?: boolean } = {}) {
  const tts = new FakeTextToSpeech();
  const clock = { now: 0 };
  const sent: string[] = [];
  const frames: Uint8Array[] = [];
  const failures: Error[] = [];
  const sink: PacerSink = {
    sendAudio: (frame) => {
      sent.push(`a${frame.length}`);
      frames.push(frame.slice());
    },
    sendMark: (name) => void sent.push(name),
    clear: () => void sent.push('clear'),
  };
  const pacer = new Pacer(sink);
  const speaker = new Speaker({
    tts,
    pacer,
    now: () => clock.now,
    toSpeech,
    onFailure: (error) => void failures.push(error),
    ...(options.kick && { kick: () => pacer.tick(clock.now) }),
  });
  /** Ticks the pacer every 10 ms for `ms` of fake time. */
  const play = (ms: number) => {
    for (const end = clock.now + ms; clock.now < end;) {
      clock.now += 10;
      pacer.tick(clock.now);
    }
  };
  const marks = () => sent.filter((item) => item.includes(':'));
  return { tts, clock, sent, frames, failures, pacer, speaker, play, marks };
}

/** Whether a promise has settled, after letting pending reactions run. */
export async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 3; i++) await Promise.resolve();
  return done;
}
