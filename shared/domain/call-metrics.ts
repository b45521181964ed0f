import * as v from 'valibot';
import { intField, looseDict, numberField } from './validation';

const optionalMs = v.optional(v.nullable(numberField({ ge: 0 })));

/**
 * One turn's latency breakdown (docs/design.md "Metrics"): end of the caller's speech → Flux end of turn →
 * LLM first token → TTS first byte → first audio played; `latency_ms` is the whole path.
 */
export const TurnMetricsSchema = looseDict({
  at_ms: v.optional(
    v.pipe(v.nullable(numberField({ ge: 0 })), v.description("When the caller's turn ended, ms from the start of the call.")),
  ),
  latency_ms: v.pipe(optionalMs, v.description("End of the caller's speech → first assistant audio played (echoed mark).")),
  end_of_turn_ms: v.pipe(optionalMs, v.description("End of speech → the recogniser's end of turn.")),
  llm_first_token_ms: v.pipe(optionalMs, v.description("Request → the model's first token.")),
  first_text_ms: v.pipe(
    optionalMs,
    v.description("Wait for the model's first speakable clause, from the later of the end of turn and the request."),
  ),
  tts_first_byte_ms: v.pipe(optionalMs, v.description("The voice's first audio byte after its text was sent.")),
  first_audio_sent_ms: v.pipe(optionalMs, v.description('End of turn → first audio frame sent to the carrier.')),
  transport_ms: v.pipe(optionalMs, v.description('First frame sent → first frame played.')),
  eager: v.optional(v.pipe(v.boolean(), v.description('The reply started on the eager end of turn and was kept.'))),
  held: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        'Present (true) when the caller spoke while the assistant was talking and the reply waited for it to finish (`interruptions: never`, or during the notice); `latency_ms` then includes that wait.',
      ),
    ),
  ),
});

const nullableMs = v.nullable(numberField({ ge: 0 }));

/**
 * A finished call's metrics (docs/design.md "Metrics"): `turns` is the per-turn breakdown (its length is the
 * number of turns); latency percentiles are null when the caller never spoke. Open, so the
 * engine may add labels such as `providers` or `sandbox` without a schema change.
 */
export const CallMetricsSchema = looseDict({
  turns: v.array(TurnMetricsSchema),
  interruptions: intField({ ge: 0 }),
  latency_ms: looseDict({ p50: nullableMs, p95: nullableMs, max: nullableMs }),
  llm_tokens: looseDict({ input: intField({ ge: 0 }), output: intField({ ge: 0 }) }),
  tts_characters: intField({ ge: 0 }),
  stt_seconds: numberField({ ge: 0 }),
  duration_s: intField({ ge: 0 }),
  providers: v.optional(
    v.pipe(
      v.record(v.string(), v.string()),
      v.description(
        "What ran the call: `stt` (`deepgram`, `openai` for the OpenAI transcriber), `llm` (`openai`, `custom`, `openai-realtime`), `tts` (`deepgram`), `telephony` (`twilio`). Where a sandbox stood in for the vendor, its label ends `-sandbox` (`deepgram-sandbox`, `openai-sandbox`, `openai-realtime-sandbox`, `twilio-sandbox`); `custom` is always the business's own endpoint.",
      ),
    ),
  ),
  sandbox: v.optional(v.pipe(v.boolean(), v.description('True when any sandbox provider or the sandbox carrier stood in.'))),
  eager: v.optional(
    v.pipe(
      looseDict({ started: intField({ ge: 0 }), discarded: intField({ ge: 0 }) }),
      v.description('Replies started on an eager end of turn, and how many of them were discarded (the caller went on).'),
    ),
  ),
  fillers: v.optional(v.pipe(intField({ ge: 0 }), v.description('Fillers ("One moment.") played while the model was slow.'))),
  faults: v.optional(
    v.pipe(
      looseDict({
        stt_reconnects: intField({ ge: 0 }),
        tts_reconnects: intField({ ge: 0 }),
        model_fallbacks: intField({ ge: 0 }),
        model_errors: intField({ ge: 0 }),
        tool_timeouts: intField({ ge: 0 }),
      }),
      v.description(
        'Provider faults on the call (docs/design.md "Provider faults"): the recogniser\'s and the voice\'s sockets replaced after a drop, the `model.fallback` taking over after the model failed (at most once a call), model failures with no fallback left (the call then ends `error`), and tools that ran past their timeout. Each is also logged.',
      ),
    ),
  ),
  pacing: v.optional(
    v.pipe(
      looseDict({
        underruns: intField({ ge: 0 }),
        underrun_ms: intField({ ge: 0 }),
        max_lead_ms: intField({ ge: 0 }),
        voice_frames: intField({ ge: 0 }),
      }),
      v.description('Outbound audio as the caller hears it: gaps where voice was due but late, and the largest lead over real time.'),
    ),
  ),
});

/** A call's metrics. */
export type CallMetrics = v.InferOutput<typeof CallMetricsSchema>;

/**
 * The metrics of a call that never connected (busy, no answer, refused, failed before its stream):
 * the documented shape with nothing in it, so clients read every call's metrics the same way.
 */
export function metricsOfUnconnectedCall(durationS: number): CallMetrics {
  return {
    turns: [],
    interruptions: 0,
    latency_ms: { p50: null, p95: null, max: null },
    llm_tokens: { input: 0, output: 0 },
    tts_characters: 0,
    stt_seconds: 0,
    duration_s: Math.max(0, Math.round(durationS)),
  };
}
