/**
 * The browser's audio for one call: an AudioContext, the worklet module, the microphone (when
 * asked for) feeding the capture processor, and the player processor feeding the speakers.
 */
import { WebCallError } from './web-call-error';
import { CAPTURE_PROCESSOR, PLAYER_PROCESSOR } from './worklet-messages';

/** The worklet's built code, put in by the build (web-client/build.ts); absent when the source is bundled by another tool. */
declare const __WEB_CALL_WORKLET__: string | undefined;

/** A call's audio graph; `close()` stops the microphone and closes the context. */
export interface CallAudio {
  context: AudioContext;
  player: AudioWorkletNode;
  capture: AudioWorkletNode | undefined;
  microphone: MediaStream | undefined;
  close(): void;
}

/**
 * The microphone with the browser's voice processing on: echo cancellation keeps the assistant's
 * voice out of the caller's audio (a web call plays through speakers, not a handset), and noise
 * suppression and gain control keep the recogniser's input steady.
 */
const MICROPHONE: MediaStreamConstraints = {
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
  video: false,
};

/**
 * Opens a call's audio. The context is created and resumed before the first await, so a call
 * started from a click handler still holds the click's user activation, which browsers require
 * before they play sound. On any failure everything opened so far is closed again.
 */
export async function openCallAudio(options: { microphone: boolean; workletUrl: string | undefined }): Promise<CallAudio> {
  const context = new AudioContext({ latencyHint: 'interactive' });
  const resumed = context.resume();
  let microphone: MediaStream | undefined;
  const close = (): void => {
    for (const track of microphone?.getTracks() ?? []) track.stop();
    if (context.state !== 'closed') void context.close().catch(() => undefined);
  };
  try {
    await Promise.all([allowed(resumed), loadWorklet(context, options.workletUrl)]);
    if (options.microphone) microphone = await navigator.mediaDevices.getUserMedia(MICROPHONE);
    const player = new AudioWorkletNode(context, PLAYER_PROCESSOR, { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [1] });
    player.connect(context.destination);
    let capture: AudioWorkletNode | undefined;
    if (microphone) {
      // No outputs: browsers still run a worklet node with none (it is pulled on its own), so the
      // microphone goes nowhere but the socket.
      capture = new AudioWorkletNode(context, CAPTURE_PROCESSOR, {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        channelCount: 1,
        channelCountMode: 'explicit',
      });
      context.createMediaStreamSource(microphone).connect(capture);
    }
    return { context, player, capture, microphone, close };
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * How long `resume()` may stay pending. Browsers keep it pending, without an error, when the page
 * had no user gesture; it settles within milliseconds when sound is allowed (opening the audio
 * device), so a wait this long means blocked, and the page hears why instead of waiting forever.
 */
const RESUME_MS = 5_000;

/** `resumed`, or a WebCallError when the browser has not allowed sound within RESUME_MS. */
function allowed(resumed: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const blocked = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new WebCallError(
          'audio_blocked',
          'startWebCall: the browser did not let the page play sound; start the call from a click or a key press',
        ),
      );
    }, RESUME_MS);
  });
  return Promise.race([resumed, blocked]).finally(() => clearTimeout(timer));
}

/**
 * Loads the processors from `workletUrl`, or from a Blob URL of the embedded copy. A page's CSP
 * governs worklets through script-src, so a page that allows no blob: scripts must pass
 * `workletUrl`; the error says so rather than leaving the browser's bare AbortError.
 */
async function loadWorklet(context: AudioContext, workletUrl: string | undefined): Promise<void> {
  if (workletUrl === undefined && typeof __WEB_CALL_WORKLET__ !== 'string') {
    throw new WebCallError('worklet_unavailable', 'startWebCall: pass workletUrl; this copy of the client has no worklet built in');
  }
  const url = workletUrl ?? URL.createObjectURL(new Blob([__WEB_CALL_WORKLET__!], { type: 'text/javascript' }));
  try {
    await context.audioWorklet.addModule(url);
  } catch (error) {
    const why =
      workletUrl === undefined
        ? "from its built-in blob: URL; the page's CSP must allow blob: in script-src, or pass workletUrl"
        : `from ${workletUrl}; is it served there, and allowed by the page's CSP?`;
    throw new WebCallError('worklet_unavailable', `startWebCall: cannot load the audio worklet ${why}`, { cause: error });
  } finally {
    if (workletUrl === undefined) URL.revokeObjectURL(url);
  }
}
