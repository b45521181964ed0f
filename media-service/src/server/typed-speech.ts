import { speechDurationMs, speechLike, textSeed } from '../audio/tone';
import type { TypedSpeech } from '../ports/web-calls';

/** Where a sandbox caller's next words are written: the transcript board (`push`, as `UtteranceSink` has it). */
export interface LineBoard {
  push(tag: string, text: string): void;
}

/** The speech-like μ-law a sandbox caller plays for `text` (as `sandbox/callee.ts` plays its lines). */
function soundOf(text: string): Uint8Array {
  return speechLike(speechDurationMs(text), textSeed(text));
}

/**
 * Typed speech through the transcript board of this process (the sandbox recogniser runs here):
 * the line is written for the call's tag, then its audio is played as the caller's.
 */
export function boardTypedSpeech(board: LineBoard): TypedSpeech {
  return {
    say: (tag, text) => {
      board.push(tag, text);
      return Promise.resolve(soundOf(text));
    },
  };
}

/** The sandbox carrier's REST base and account (the one `TwilioTelephony` calls). */
export interface SandboxCarrierAccount {
  baseUrl: string;
  accountSid: string;
  authToken: string;
}

/**
 * Typed speech through the sandbox carrier's `POST /sandbox/board/{tag}` (Basic auth, as its other
 * routes): the board lives in another process (`MEDIA_TASKS` children share their parent's).
 */
export function carrierTypedSpeech(carrier: SandboxCarrierAccount, timeoutMs = 10_000): TypedSpeech {
  const authorization = `Basic ${Buffer.from(`${carrier.accountSid}:${carrier.authToken}`).toString('base64')}`;
  return {
    async say(tag, text) {
      const response = await fetch(new URL(`/sandbox/board/${encodeURIComponent(tag)}`, carrier.baseUrl), {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok) return { refused: `The sandbox board refused the line (HTTP ${response.status}).` };
      return soundOf(text);
    },
  };
}

/**
 * With real providers: no way to make typed words heard yet (synthesising them with a second voice
 * is not built), so the browser is told so (an `error` `bad_message`) and the call goes on.
 */
export const NO_TYPED_SPEECH: TypedSpeech = {
  say: () => Promise.resolve({ refused: 'Typed speech needs the sandbox (no provider keys): talk through the microphone.' }),
};
