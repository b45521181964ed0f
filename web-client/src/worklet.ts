/**
 * The two AudioWorklet processors of a web call, in one module (built to
 * dist/web-call-worklet.js, and embedded in the client bundle for its Blob URL). They run on the
 * audio thread: capture turns microphone blocks into 20 ms frames, the player renders the jitter
 * buffer. Everything they compute is in the pure modules; this file is only the glue.
 */
import { Capture } from './capture';
import { decodePcm16 } from './pcm';
import { Playout } from './playout';
import { CAPTURE_PROCESSOR, PLAYER_PROCESSOR, type FromCapture, type FromPlayer, type ToCapture, type ToPlayer } from './worklet-messages';

// The AudioWorkletGlobalScope: TypeScript's DOM library declares the nodes, not the processors' scope.
declare abstract class AudioWorkletProcessor {
  readonly port: MessagePort;
  abstract process(inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;
declare const sampleRate: number;

/** Render quanta between two stats messages: 16 × 128 frames, about 40 ms at 48 kHz. */
const STATS_EVERY = 16;

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly capture = new Capture(sampleRate);

  constructor() {
    super();
    this.port.onmessage = (event: MessageEvent<ToCapture>) => {
      if (event.data.type === 'mute') this.capture.muted = event.data.muted;
    };
  }

  process(inputs: Float32Array[][]): boolean {
    const channel = inputs[0]?.[0];
    if (channel === undefined) return true;
    for (const { frame, level } of this.capture.process(channel)) {
      const message: FromCapture = { type: 'frame', frame, level };
      this.port.postMessage(message, [frame]);
    }
    return true;
  }
}

class PlayerProcessor extends AudioWorkletProcessor {
  private readonly playout = new Playout(sampleRate);
  private quanta = 0;

  constructor() {
    super();
    this.port.onmessage = (event: MessageEvent<ToPlayer>) => {
      const message = event.data;
      if (message.type === 'audio') {
        const samples = decodePcm16(message.pcm);
        if (samples !== undefined) this.playout.push(samples);
      } else if (message.type === 'mark') {
        this.echo(this.playout.mark(message.name));
      } else {
        this.echo(this.playout.clear());
      }
    };
  }

  process(_inputs: Float32Array[][], outputs: Float32Array[][]): boolean {
    const channels = outputs[0] ?? [];
    const first = channels[0];
    if (first === undefined) return true;
    this.echo(this.playout.render(first));
    for (let c = 1; c < channels.length; c++) channels[c]!.set(first);
    if (++this.quanta % STATS_EVERY === 0) this.send({ type: 'stats', stats: this.playout.stats() });
    return true;
  }

  private echo(names: readonly string[]): void {
    if (names.length > 0) this.send({ type: 'marks', names, stats: this.playout.stats() });
  }

  private send(message: FromPlayer): void {
    this.port.postMessage(message);
  }
}

registerProcessor(CAPTURE_PROCESSOR, CaptureProcessor);
registerProcessor(PLAYER_PROCESSOR, PlayerProcessor);
