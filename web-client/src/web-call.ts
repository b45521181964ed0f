/**
 * One web call on the page: the socket, the audio graph, and the events between them. Created by
 * `startWebCall` (index.ts), which hands it out once the server has said `started`.
 */
import type { CallAudio } from './audio';
import { WebCallError } from './web-call-error';
import { Emitter, type Listener, type WebCallEvent } from './events';
import { DEFAULT_POLICY, type PlayoutStats } from './playout';
import {
  ENCODING,
  SAMPLE_RATE,
  dtmfMessage,
  hangupMessage,
  markMessage,
  parseServerMessage,
  sayMessage,
  startMessage,
  type ServerMessage,
  type StartedMessage,
} from './protocol';
import type { FromCapture, FromPlayer, ToCapture, ToPlayer } from './worklet-messages';

/** The call's playback and traffic figures, for a debug panel or a test. */
export interface WebCallStats extends PlayoutStats {
  /** Microphone frames sent (20 ms each). */
  framesSent: number;
  /** Audio frames received from the server. */
  framesReceived: number;
}

/** The server must answer `start` within this; it redeems the token with one conditional write. */
const START_TIMEOUT_MS = 15_000;
/** After `hangUp()`, how long the server has to send `ended` and close before the page closes the socket itself. */
const HANGUP_CLOSE_MS = 3_000;

/** A live web call. */
export class WebCallSession {
  callId = 0;
  private readonly events = new Emitter();
  private started = false;
  private over = false;
  private framesSent = 0;
  private framesReceived = 0;
  /** The player's figures as of its last message (it sends them a few times a second and with each echo). */
  private playout: PlayoutStats = { bufferedMs: 0, targetMs: DEFAULT_POLICY.startMs, playedMs: 0, underruns: 0 };
  private readonly startTimer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly socket: WebSocket,
    private readonly audio: CallAudio,
    private readonly settle: { resolve: (call: WebCallSession) => void; reject: (error: WebCallError) => void },
    token: string,
  ) {
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => socket.send(startMessage(token));
    socket.onmessage = (event: MessageEvent<string | ArrayBuffer>) => this.receive(event.data);
    socket.onclose = (event) => this.closed(event.code, event.reason);
    audio.player.port.onmessage = (event: MessageEvent<FromPlayer>) => this.fromPlayer(event.data);
    if (audio.capture) audio.capture.port.onmessage = (event: MessageEvent<FromCapture>) => this.fromCapture(event.data);
    this.startTimer = setTimeout(
      () => this.fail(new WebCallError('start_timeout', `the server did not answer start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
  }

  on<E extends WebCallEvent>(event: E, listener: Listener<E>): () => void {
    return this.events.on(event, listener);
  }

  say(text: string): boolean {
    return this.send(sayMessage(text));
  }

  sendDigits(digits: string): boolean {
    return this.send(dtmfMessage(digits));
  }

  setMuted(muted: boolean): void {
    for (const track of this.audio.microphone?.getAudioTracks() ?? []) track.enabled = !muted;
    const message: ToCapture = { type: 'mute', muted };
    this.audio.capture?.port.postMessage(message);
  }

  hangUp(): void {
    if (this.over) return;
    this.send(hangupMessage());
    this.audio.close();
    setTimeout(() => this.socket.close(1000, 'hung up'), HANGUP_CLOSE_MS);
  }

  /** Leaves at once without asking the server anything (a listener's stop): audio and socket closed, no `ended` event. */
  close(): void {
    if (this.over) return;
    this.teardown();
  }

  stats(): WebCallStats {
    return { ...this.playout, framesSent: this.framesSent, framesReceived: this.framesReceived };
  }

  private receive(data: string | ArrayBuffer): void {
    if (this.over) return;
    if (typeof data !== 'string') {
      this.framesReceived++;
      this.toPlayer({ type: 'audio', pcm: data }, [data]);
      return;
    }
    const message = parseServerMessage(data);
    if (message !== undefined) this.handle(message);
  }

  private handle(message: ServerMessage): void {
    switch (message.type) {
      case 'started':
        return this.begin(message);
      case 'mark':
        return this.toPlayer({ type: 'mark', name: message.name });
      case 'clear':
        return this.toPlayer({ type: 'clear' });
      case 'ended':
        return this.end(message.reason);
      case 'error':
        if (!this.started) return this.fail(new WebCallError(message.code, message.message));
        return this.events.emit('error', message);
      default:
        return this.events.emit(message.type, message as never);
    }
  }

  private begin(message: StartedMessage): void {
    if (this.started) return;
    if (message.sample_rate !== SAMPLE_RATE || message.encoding !== ENCODING) {
      const heard = `${message.encoding} at ${message.sample_rate} Hz`;
      return this.fail(
        new WebCallError('unsupported_audio', `the server offered ${heard}; this client plays ${ENCODING} at ${SAMPLE_RATE} Hz`),
      );
    }
    clearTimeout(this.startTimer);
    this.started = true;
    this.callId = message.call_id;
    this.settle.resolve(this);
  }

  private fromCapture(message: FromCapture): void {
    if (!this.started || this.over || this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(message.frame);
    this.framesSent++;
    this.events.emit('level', { type: 'level', rms: message.level });
  }

  private fromPlayer(message: FromPlayer): void {
    this.playout = message.stats;
    if (message.type === 'marks') for (const name of message.names) this.send(markMessage(name));
  }

  private toPlayer(message: ToPlayer, transfer: Transferable[] = []): void {
    this.audio.player.port.postMessage(message, transfer);
  }

  private send(text: string): boolean {
    if (this.over || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(text);
    return true;
  }

  private closed(code: number, reason: string): void {
    if (!this.started) {
      const detail = reason ? `${code} ${reason}` : String(code);
      return this.fail(new WebCallError('connection_closed', `the socket closed before the call started (${detail})`));
    }
    this.end('connection_closed');
  }

  /** The call is over: one `ended` event, then the audio and the socket are closed. */
  private end(reason: string): void {
    if (this.over) return;
    if (!this.started) return this.fail(new WebCallError('connection_closed', `the call ended before it started (${reason})`));
    this.teardown();
    this.events.emit('ended', { type: 'ended', reason });
  }

  private fail(error: WebCallError): void {
    if (this.over) return;
    this.teardown();
    this.settle.reject(error);
  }

  private teardown(): void {
    this.over = true;
    clearTimeout(this.startTimer);
    this.audio.close();
    if (this.socket.readyState === WebSocket.CONNECTING || this.socket.readyState === WebSocket.OPEN) this.socket.close(1000);
  }
}
