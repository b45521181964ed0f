import { DeepgramTextToSpeech } from '../../media-service/src/adapters/deepgram-text-to-speech';
import { OpenAiLanguageModel } from '../../media-service/src/adapters/openai-language-model';
import type { TtsEvent } from '../../media-service/src/ports/text-to-speech';
import type { VoiceUrls } from '../calls-providers';
import { startProvidersChild, type ProviderLatencies } from './providers-child';
import { silentLogger } from '../../shared/log';

/** Rounds of the floor probe, and the pause between them (turns of one call are never back to back). */
const ROUNDS = 200;
const PAUSE_MS = 20;
/** Warm-up of a fresh voice child: this many probes side by side, each this many rounds. */
const WARM_PROBES = 10;
const WARM_ROUNDS = 10;

/** A turn's request, as the bench assistant sends it (default model settings: raced, not priority). */
const MESSAGES = [
  { role: 'system' as const, content: 'You are the phone assistant of Acme Dental. Keep answers short.' },
  { role: 'user' as const, content: 'Are you open on Saturday mornings?' },
];

/**
 * `rounds` times, what a turn does after EndOfTurn, through the production adapters against the
 * voice child at `urls`: a raced chat request read to its first text, that text spoken to Aura
 * (one stream, as a call keeps), and the wait for its first audio byte. Returns ms per round.
 */
async function providerRounds(urls: VoiceUrls, rounds: number, pauseMs: number): Promise<number[]> {
  const abort = new AbortController();
  const llm = new OpenAiLanguageModel({ provider: 'openai', apiKey: 'sk-sandbox', baseURL: urls.openAiUrl });
  const tts = new DeepgramTextToSpeech({ apiKey: 'sandbox', baseUrl: urls.auraUrl, log: silentLogger }).open({
    voice: 'aura-2-thalia-en',
    speed: 1,
    signal: abort.signal,
  });
  // Events are kept until waited for: `flushed` can arrive in the same socket read as the audio.
  const seen: TtsEvent['type'][] = [];
  let wake: (() => void) | undefined;
  let firstAudioAt: number | undefined;
  tts.on((event) => {
    if (event.type === 'audio') firstAudioAt ??= performance.now();
    seen.push(event.type);
    wake?.();
  });
  const until = async (type: TtsEvent['type']) => {
    for (;;) {
      if (seen.includes('error') || seen.includes('closed')) throw new Error('the sandbox Aura stream ended');
      const at = seen.indexOf(type);
      if (at >= 0) return void seen.splice(0, at + 1);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const times: number[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      firstAudioAt = undefined;
      const started = performance.now();
      const stream = llm.stream({
        model: 'gpt-4.1-mini',
        messages: MESSAGES,
        temperature: 0.7,
        maxTokens: 200,
        priority: false,
        race: true,
        signal: abort.signal,
      });
      let spoken = false;
      for await (const chunk of stream) {
        if (chunk.type !== 'text' || spoken) continue;
        // The first text goes to the voice at once, as the speaker sends a reply's first clause.
        tts.speak(chunk.text);
        tts.flush();
        spoken = true;
      }
      await until('audio');
      times.push(firstAudioAt! - started);
      await until('flushed');
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  } finally {
    abort.abort();
    tts.close();
  }
  return times;
}

/**
 * Brings a freshly spawned voice child's code to steady state (its JIT starts cold in every run,
 * while the providers it stands in for are long-running services): 100 provider rounds, 10 side by
 * side, before the run's calls start.
 */
export async function warmVoiceChild(urls: VoiceUrls): Promise<void> {
  await Promise.all(Array.from({ length: WARM_PROBES }, () => providerRounds(urls, WARM_ROUNDS, 0)));
}

/**
 * The machine's floor under the overhead measure: a turn's two provider round trips with no call
 * running (200 rounds, 20 ms apart, against a warmed voice child at `latencies`, normally 0 ms).
 * It is the loopback and process wake-up cost of this machine alone; a loaded run's overhead above
 * it is contention.
 */
export async function measureFloor(latencies: ProviderLatencies): Promise<number[]> {
  const child = await startProvidersChild(latencies);
  try {
    await warmVoiceChild(child.urls);
    return await providerRounds(child.urls, ROUNDS, PAUSE_MS);
  } finally {
    await child.stop();
  }
}
