import { DeepgramTextToSpeech } from '../../media-service/src/adapters/deepgram-text-to-speech';
import { OpenAiLanguageModel } from '../../media-service/src/adapters/openai-language-model';
import type { TtsEvent } from '../../media-service/src/ports/text-to-speech';
import { startProvidersChild, type ProviderLatencies } from './providers-child';

/** Rounds of the probe, and the pause between them (turns of one call are never back to back). */
const ROUNDS = 200;
const PAUSE_MS = 20;

/** A turn's request, as the bench assistant sends it (default model settings: raced, not priority). */
const MESSAGES = [
  { role: 'system' as const, content: 'You are the phone assistant of Acme Dental. Keep answers short.' },
  { role: 'user' as const, content: 'Are you open on Saturday mornings?' },
];

/**
 * The machine's floor under the overhead measure: what a turn's two provider round trips cost
 * when no call is running. Each round does what a turn does after EndOfTurn, through the
 * production adapters, against a fresh voice-provider child at 0 ms latency: a raced chat request
 * read to its first text, that text spoken to Aura, and the wait for its first audio byte. The
 * result (ms per round) is the loopback and process-wakeup cost of this machine alone; a loaded
 * run's overhead above it is contention.
 */
export async function measureFloor(latencies: ProviderLatencies): Promise<number[]> {
  const child = await startProvidersChild(latencies);
  const abort = new AbortController();
  const llm = new OpenAiLanguageModel({ provider: 'openai', apiKey: 'sk-sandbox', baseURL: child.urls.openAiUrl });
  const tts = new DeepgramTextToSpeech({ apiKey: 'sandbox', baseUrl: child.urls.auraUrl, log: () => undefined }).open({
    voice: 'aura-2-thalia-en', speed: 1, signal: abort.signal,
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
  const rounds: number[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      firstAudioAt = undefined;
      const started = performance.now();
      const stream = llm.stream({ model: 'gpt-4.1-mini', messages: MESSAGES, temperature: 0.7, maxTokens: 200, priority: false, race: true, signal: abort.signal });
      let spoken = false;
      for await (const chunk of stream) {
        if (chunk.type !== 'text' || spoken) continue;
        // The first text goes to the voice at once, as the speaker sends a reply's first clause.
        tts.speak(chunk.text);
        tts.flush();
        spoken = true;
      }
      await until('audio');
      rounds.push(firstAudioAt! - started);
      await until('flushed');
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  } finally {
    abort.abort();
    tts.close();
    await child.stop();
  }
  return rounds;
}
