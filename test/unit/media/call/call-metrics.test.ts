import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CallMetricsSchema } from '../../../../shared/domain/call-metrics';
import {
  SANDBOX_PROVIDER_LABELS,
  buildCallMetrics,
  newCounters,
  percentile,
  turnMetrics,
  type TurnTiming,
} from '../../../../media-service/src/call/call-metrics';
import type { ProviderLabels } from '../../../../media-service/src/call/session-types';
import type { Utterance } from '../../../../media-service/src/call/speaker';

/** An utterance as the Speaker leaves it, with only the timing fields the metrics read. */
const utterance = (fields: Partial<Utterance>): Utterance => ({
  id: 1,
  kind: 'reply',
  text: 'Sure.',
  bytesReceived: 1600,
  bytesPlayed: 1600,
  flushed: true,
  finished: true,
  interrupted: false,
  done: Promise.resolve(),
  ...fields,
});

const vendors: ProviderLabels = { stt: 'deepgram', llm: 'openai', tts: 'deepgram', telephony: 'twilio' };

describe('turnMetrics', () => {
  describe.each<{ name: string; turn: TurnTiming; expected: Record<string, number | boolean | null> }>([
    {
      name: 'a full breakdown',
      turn: {
        endOfSpeechAt: 1000,
        endOfTurnAt: 1250,
        eager: false,
        llmFirstTokenMs: 300.4,
        requestAt: 1252,
        utterance: utterance({ requestedAt: 1570, firstByteMs: 120.6, firstSentAt: 1700, firstPlayedAt: 1790 }),
      },
      expected: {
        latency_ms: 790,
        end_of_turn_ms: 250,
        llm_first_token_ms: 300,
        tts_first_byte_ms: 121,
        first_text_ms: 318,
        first_audio_sent_ms: 450,
        transport_ms: 90,
        eager: false,
      },
    },
    {
      name: 'an eager reply: its first clause was ready before EndOfTurn',
      turn: { endOfTurnAt: 1250, eager: true, requestAt: 1000, utterance: utterance({ requestedAt: 1240, firstSentAt: 1262 }) },
      expected: {
        latency_ms: null,
        end_of_turn_ms: null,
        llm_first_token_ms: null,
        tts_first_byte_ms: null,
        first_text_ms: 0,
        first_audio_sent_ms: 12,
        transport_ms: null,
        eager: true,
      },
    },
    {
      name: 'no word end times: latency from EndOfTurn',
      turn: { endOfTurnAt: 1250, eager: true, utterance: utterance({ firstSentAt: 1500, firstPlayedAt: 1600 }) },
      expected: {
        latency_ms: 350,
        end_of_turn_ms: null,
        llm_first_token_ms: null,
        tts_first_byte_ms: null,
        first_text_ms: null,
        first_audio_sent_ms: 250,
        transport_ms: 100,
        eager: true,
      },
    },
    {
      name: 'never played (interrupted before audio)',
      turn: { endOfSpeechAt: 1000, endOfTurnAt: 1200, eager: false, llmFirstTokenMs: 400, utterance: utterance({ firstSentAt: 1900 }) },
      expected: {
        latency_ms: null,
        end_of_turn_ms: 200,
        llm_first_token_ms: 400,
        tts_first_byte_ms: null,
        first_text_ms: null,
        first_audio_sent_ms: 700,
        transport_ms: null,
        eager: false,
      },
    },
    {
      name: 'no utterance at all (tool-only turn)',
      turn: { endOfSpeechAt: 1000, endOfTurnAt: 1100, eager: false },
      expected: {
        latency_ms: null,
        end_of_turn_ms: 100,
        llm_first_token_ms: null,
        tts_first_byte_ms: null,
        first_text_ms: null,
        first_audio_sent_ms: null,
        transport_ms: null,
        eager: false,
      },
    },
    {
      name: 'clock skew never goes negative',
      turn: { endOfSpeechAt: 1300, endOfTurnAt: 1250, eager: false, utterance: utterance({ firstSentAt: 1200, firstPlayedAt: 1190 }) },
      expected: {
        latency_ms: 0,
        end_of_turn_ms: 0,
        llm_first_token_ms: null,
        tts_first_byte_ms: null,
        first_text_ms: null,
        first_audio_sent_ms: 0,
        transport_ms: 0,
        eager: false,
      },
    },
  ])('$name', ({ turn, expected }) => {
    it('reports each stage in whole ms', () => {
      // Arrange / Act
      const row = turnMetrics(turn);
      // Assert
      expect(row).toEqual(expected);
    });
  });
});

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  describe.each([
    { sorted: [], p: 50, expected: null },
    { sorted: [7], p: 50, expected: 7 },
    { sorted: [7], p: 95, expected: 7 },
    { sorted: [1, 2, 3, 4], p: 50, expected: 2 },
    { sorted: [1, 2, 3, 4], p: 95, expected: 4 },
    { sorted: [1, 2, 3, 4], p: 0, expected: 1 },
    { sorted: [1, 2, 3, 4], p: 100, expected: 4 },
    { sorted: hundred, p: 50, expected: 50 },
    { sorted: hundred, p: 95, expected: 95 },
    { sorted: hundred, p: 99, expected: 99 },
  ])('p$p of $sorted.length values', ({ sorted, p, expected }) => {
    it(`is ${expected}`, () => {
      // Arrange / Act
      const value = percentile(sorted, p);
      // Assert
      expect(value).toBe(expected);
    });
  });
});

describe('buildCallMetrics', () => {
  it('builds metrics that validate against CallMetricsSchema, with percentiles over played turns', () => {
    // Arrange
    const counters = newCounters();
    const played = (at: number) => ({
      endOfSpeechAt: 0,
      endOfTurnAt: 100,
      eager: false,
      utterance: utterance({ firstSentAt: at - 50, firstPlayedAt: at }),
    });
    counters.turns.push(played(900), played(500), { endOfTurnAt: 100, eager: false }, played(700));
    Object.assign(counters, {
      interruptions: 2,
      llmInput: 1200,
      llmOutput: 80,
      ttsCharacters: 340,
      sttBytes: 8000 * 61.26,
      eagerStarted: 3,
      eagerDiscarded: 1,
      fillers: 1,
    });
    // Act
    const metrics = buildCallMetrics(counters, 62.4, vendors);
    // Assert
    expect(v.parse(CallMetricsSchema, metrics)).toEqual(metrics);
    expect(metrics).toMatchObject({
      interruptions: 2,
      latency_ms: { p50: 700, p95: 900, max: 900 },
      llm_tokens: { input: 1200, output: 80 },
      tts_characters: 340,
      stt_seconds: 61.3,
      duration_s: 62,
      providers: vendors,
      sandbox: false,
      eager: { started: 3, discarded: 1 },
      fillers: 1,
    });
    expect(metrics.turns).toHaveLength(4);
    expect(metrics.turns.map((row) => row.latency_ms)).toEqual([900, 500, null, 700]);
  });

  it('validates for a call where the caller never spoke: null percentiles, no turns', () => {
    // Arrange
    const counters = newCounters();
    // Act
    const metrics = buildCallMetrics(counters, -0.2, { ...vendors, tts: 'deepgram-sandbox' });
    // Assert
    expect(v.parse(CallMetricsSchema, metrics)).toEqual(metrics);
    expect(metrics).toMatchObject({
      turns: [],
      interruptions: 0,
      latency_ms: { p50: null, p95: null, max: null },
      stt_seconds: 0,
      duration_s: 0,
      sandbox: true,
    });
  });

  describe.each([
    { name: 'all sandbox', providers: SANDBOX_PROVIDER_LABELS, sandbox: true },
    { name: 'sandbox carrier only', providers: { ...vendors, telephony: 'twilio-sandbox' }, sandbox: true },
    { name: 'the OpenAI transcriber in the sandbox', providers: { ...vendors, stt: 'openai-sandbox' }, sandbox: true },
    { name: 'all vendors', providers: vendors, sandbox: false },
  ])('sandbox flag: $name', ({ providers, sandbox }) => {
    it(`is ${sandbox}`, () => {
      // Arrange / Act
      const metrics = buildCallMetrics(newCounters(), 10, providers);
      // Assert
      expect(metrics.sandbox).toBe(sandbox);
      expect(metrics.providers).toEqual(providers);
    });
  });

  it('copies only the four provider labels', () => {
    // Arrange
    const providers = { ...vendors, secret: 'x' } as ProviderLabels;
    // Act
    const metrics = buildCallMetrics(newCounters(), 1, providers);
    // Assert
    expect(Object.keys(metrics.providers ?? {}).sort()).toEqual(['llm', 'stt', 'telephony', 'tts']);
  });

  it("records the recogniser and voice the call took from the registry over the process's defaults", () => {
    // Arrange
    const counters = { ...newCounters(), sttLabel: 'openai-sandbox', ttsLabel: 'deepgram-sandbox' };
    // Act
    const metrics = buildCallMetrics(counters, 1, vendors);
    // Assert
    expect(metrics.providers).toEqual({ stt: 'openai-sandbox', llm: 'openai', tts: 'deepgram-sandbox', telephony: 'twilio' });
    expect(metrics.sandbox).toBe(true);
  });
});
