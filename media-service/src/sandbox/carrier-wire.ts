import { randomBytes } from 'node:crypto';

/** Twilio-shaped SID: two-letter prefix + 32 lowercase hex (e.g. `CA…` call, `MZ…` stream). */
export function twilioSid(prefix: 'CA' | 'MZ' | 'AC'): string {
  return prefix + randomBytes(16).toString('hex');
}

/**
 * Writes the Twilio → server side of one Media Stream exactly as documented (docs/protocols.md "Twilio"):
 * `connected` first (no sequence number), then every message with a string `sequenceNumber`
 * counting from "1". `media` is built by template so 50 frames a second per call cost one string
 * each; ids are JSON-safe by construction (hex SIDs), user values go through `JSON.stringify`.
 */
export class TwilioStreamWriter {
  readonly streamSid: string;
  readonly #callSid: string;
  readonly #accountSid: string;
  #sequence = 0;

  constructor(streamSid: string, callSid: string, accountSid: string) {
    this.streamSid = streamSid;
    this.#callSid = callSid;
    this.#accountSid = accountSid;
  }

  /** The first message of every stream. */
  connected(): string {
    return JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' });
  }

  /** `start`: ids, the `<Parameter>`s as `customParameters`, and the fixed μ-law 8 kHz mono format. */
  start(customParameters: Record<string, string>): string {
    return JSON.stringify({
      event: 'start',
      sequenceNumber: this.#next(),
      start: {
        accountSid: this.#accountSid,
        streamSid: this.streamSid,
        callSid: this.#callSid,
        tracks: ['inbound'],
        customParameters,
        mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
      },
      streamSid: this.streamSid,
    });
  }

  /** `media`: `chunk` counts from 1, `timestamp` is ms since the stream started. */
  media(chunk: number, timestampMs: number, payloadBase64: string): string {
    return `{"event":"media","sequenceNumber":"${this.#next()}","media":{"track":"inbound","chunk":"${chunk}","timestamp":"${timestampMs}","payload":"${payloadBase64}"},"streamSid":"${this.streamSid}"}`;
  }

  /** `dtmf` (bidirectional streams only). */
  dtmf(digit: string): string {
    return JSON.stringify({
      event: 'dtmf',
      streamSid: this.streamSid,
      sequenceNumber: this.#next(),
      dtmf: { track: 'inbound_track', digit },
    });
  }

  /** A `mark` echo. */
  mark(name: string): string {
    return JSON.stringify({ event: 'mark', sequenceNumber: this.#next(), streamSid: this.streamSid, mark: { name } });
  }

  /** `stop`: the call ended or left the `<Connect>`. */
  stop(): string {
    return JSON.stringify({
      event: 'stop',
      sequenceNumber: this.#next(),
      stop: { accountSid: this.#accountSid, callSid: this.#callSid },
      streamSid: this.streamSid,
    });
  }

  #next(): string {
    this.#sequence++;
    return String(this.#sequence);
  }
}

/** The sandbox account (shape-valid: `AC` + 32 hex). Not a secret: the auth token is. */
export const SANDBOX_ACCOUNT_SID = 'AC00000000000000000000000000000000';

/**
 * A new sandbox auth token: 32 random hex characters, like a Twilio auth token. There is no
 * default token anyone could know: it signs the callbacks the media service trusts.
 */
export function newSandboxAuthToken(): string {
  return randomBytes(16).toString('hex');
}
