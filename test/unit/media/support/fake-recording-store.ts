import type {
  RecordingStore,
  RecordingTarget,
  RecordingUpload,
  SaveRecordingInput,
} from '../../../../media-service/src/ports/recording-store';

/**
 * An in-memory RecordingStore keeping S3's multipart rules (parts numbered 1 … 10 000, every part
 * but the highest-numbered at least `minPartBytes`, parts joined in number order), with a small
 * minimum so tests can cut a call into many parts. `events` says what happened, in order;
 * `holdParts` makes part uploads wait for `releaseParts()`; `failParts` makes them reject.
 */
export class FakeRecordingStore implements RecordingStore {
  readonly objects = new Map<string, Uint8Array>();
  readonly events: string[] = [];
  holdParts = false;
  failParts: Error | undefined;
  readonly #held: (() => void)[] = [];

  constructor(readonly minPartBytes: number) {}

  async save(input: SaveRecordingInput): Promise<{ key: string }> {
    const key = keyOf(input);
    this.events.push(`save ${input.wav.length}`);
    this.objects.set(key, input.wav);
    return { key };
  }

  async startUpload(target: RecordingTarget): Promise<RecordingUpload> {
    const key = keyOf(target);
    const parts = new Map<number, Uint8Array>();
    this.events.push('start');
    return {
      key,
      putPart: async (partNumber, body) => {
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) throw new Error(`bad part ${partNumber}`);
        if (this.holdParts) await new Promise<void>((resolve) => this.#held.push(resolve));
        if (this.failParts) throw this.failParts;
        parts.set(partNumber, body.slice());
        this.events.push(`part ${partNumber} ${body.length}`);
      },
      complete: async () => {
        const ordered = [...parts].sort(([a], [b]) => a - b);
        if (ordered.length === 0) throw new Error('MalformedXML: no parts');
        ordered.slice(0, -1).forEach(([n, body]) => {
          if (body.length < this.minPartBytes) throw new Error(`EntityTooSmall: part ${n} is ${body.length} bytes`);
        });
        this.objects.set(key, Buffer.concat(ordered.map(([, body]) => body)));
        this.events.push('complete');
      },
      abort: async () => {
        parts.clear();
        this.events.push('abort');
      },
    };
  }

  /** Lets every held part upload go on. */
  releaseParts(): void {
    this.holdParts = false;
    for (const release of this.#held.splice(0)) release();
  }
}

function keyOf(target: RecordingTarget): string {
  return `recordings/${target.businessId}/${target.callId}.wav`;
}
