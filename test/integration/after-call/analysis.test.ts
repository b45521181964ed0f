import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { analyzeCall, type AnalyzeDeps } from '../../../functions/analysis/analyze-call';
import { OpenAiSandboxServer } from '../../../media-service/src/sandbox/openai-server';
import { AssistantRepository } from '../../../shared/db/assistant-repository';
import { BusinessRepository } from '../../../shared/db/business-repository';
import { CallRepository, type CallRecord } from '../../../shared/db/call-repository';
import { CallerMemoryRepository } from '../../../shared/db/caller-memory-repository';
import { createDb } from '../../../shared/db/client';
import { defaultBusinessProfile } from '../../../shared/domain/business-profile';
import { defaultAssistantConfig, type AssistantConfig } from '../../../shared/domain/assistant-config';
import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import { transcriptForAnalysisEvent } from '../../../shared/domain/analysis-transcript';
import type { CallEvent } from '../../../shared/events/catalog';
import type { EventBus } from '../../../shared/events/event-bus';
import { OpenAiAnalysisClient, type AnalysisModel } from '../../../shared/llm/analysis-client';
import { silentLogger } from '../../../shared/log';

const db = createDb({ tableName: inject('tableName'), region: 'local', endpoint: inject('dynamoEndpoint') });
const calls = new CallRepository(db);
const memory = new CallerMemoryRepository(db);
const businessId = 800_000 + Math.floor(Math.random() * 90_000);
let openai: OpenAiSandboxServer;
let nextId = 1;
const published: CallEvent[] = [];

/** An in-memory EventBus: records what is published. */
const bus: EventBus = {
  async publish(events) {
    published.push(...events);
  },
};

beforeAll(async () => {
  openai = await OpenAiSandboxServer.start({ ttftMs: 0, tokenIntervalMs: 0 });
  await new BusinessRepository(db).putBusiness({
    id: businessId,
    name: 'Acme Dental',
    created_at: new Date().toISOString(),
    minutes_balance: 100,
    minutes_reserved: 0,
    max_concurrent_calls: 10,
    profile: { ...defaultBusinessProfile(), display_name: 'Acme Dental', timezone: 'Europe/London' },
    webhook_secret_sealed: 'unused',
  });
});

afterAll(async () => {
  await openai.close();
});

function deps(maxAttempts?: number, model?: AnalysisModel): AnalyzeDeps {
  return {
    calls,
    assistants: new AssistantRepository(db),
    businesses: new BusinessRepository(db),
    events: bus,
    memory,
    model: model ?? new OpenAiAnalysisClient({ apiKey: 'sk-sandbox', baseURL: openai.baseUrl }),
    now: () => new Date(),
    newEventId: () => `evt_${randomUUID()}`,
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
    log: silentLogger,
  };
}

/** Settings and call fields a test changes from the defaults. */
interface SeedExtras {
  advanced?: Partial<AssistantConfig['advanced']>;
  call?: Partial<CallRecord>;
}

async function seed(
  endedReason: EndedReason,
  analysis: Partial<AssistantConfig['analysis']>,
  redact: AssistantConfig['advanced']['redact'] = [],
  extras: SeedExtras = {},
) {
  const assistantId = nextId++;
  const callId = 20_000 + nextId++;
  const base = defaultAssistantConfig();
  const config: AssistantConfig = {
    ...base,
    analysis: { ...base.analysis, ...analysis },
    advanced: { ...base.advanced, redact, ...extras.advanced },
  };
  const now = new Date().toISOString();
  await new AssistantRepository(db).insertAssistant(businessId, {
    id: assistantId,
    name: 'Analyst',
    created_at: now,
    updated_at: now,
    config,
  });
  const record: CallRecord = {
    id: callId,
    assistant_id: assistantId,
    channel: 'phone',
    direction: 'inbound',
    from_number: '+15550100009',
    to_number: '+15550100001',
    started_at: now,
    ended_at: now,
    duration_s: 61,
    status: 'ended',
    outcome: null,
    ended_reason: endedReason,
    summary: '',
    intent: '',
    caller_name: null,
    score: null,
    analysis: {},
    business_id: businessId,
    created_at: now,
    updated_at: now,
    phone_number_id: null,
    variables: {},
    ...extras.call,
  };
  await calls.insertCall(record);
  const talked = endedReason !== 'no_answer';
  const transcript: TranscriptEntry[] = talked
    ? [
        { role: 'assistant', text: 'Acme Dental, how can I help?', start_ms: 0, end_ms: 1500, interrupted: false },
        {
          role: 'user',
          text: 'Hi, I am Ana. Book a cleaning on 2026-12-01, my email is ana@example.com',
          start_ms: 1600,
          end_ms: 5000,
          interrupted: false,
        },
        { role: 'assistant', text: 'Booked for 2026-12-01.', start_ms: 5200, end_ms: 6500, interrupted: false },
      ]
    : [];
  // As the call engine ends calls: a HIPAA call's transcript is not stored; its call.ended carries it, redacted.
  const hipaa = config.advanced.hipaa;
  await calls.putCallDetail(businessId, callId, { transcript: hipaa ? [] : transcript, metrics: {}, recording_key: null });
  const event: CallEvent = {
    type: 'call.ended',
    detail: {
      event_id: `evt_${randomUUID()}`,
      business_id: businessId,
      call_id: callId,
      assistant_id: assistantId,
      occurred_at: now,
      ...(hipaa && { transcript: transcriptForAnalysisEvent(transcript) }),
    },
  };
  return { callId, event };
}

const STRUCTURED: AssistantConfig['analysis']['structured'] = [
  { name: 'appointment_date', type: 'date', description: 'Booked date', options: [] },
  { name: 'party_size', type: 'number', description: 'People', options: [] },
  { name: 'new_patient', type: 'boolean', description: 'First visit?', options: [] },
  { name: 'service', type: 'enum', description: 'What', options: ['cleaning', 'filling'] },
  { name: 'email', type: 'string', description: 'Caller email', options: [] },
];

describe('post-call analysis', () => {
  it.each(['pass_fail', 'score_10', 'descriptive'] as const)(
    'stores every analysis field for success scale %s and publishes call.completed',
    async (scale) => {
      // Arrange
      const { callId, event } = await seed('caller_hung_up', { success_scale: scale, structured: STRUCTURED }, ['email']);
      const before = openai.requests.length;
      published.length = 0;
      // Act
      const result = await analyzeCall(event, deps());
      // Assert
      expect(result).toBe('analysed');
      const request = openai.requests[before]!;
      const body = request.body as { response_format: { type: string; json_schema: { strict: boolean } }; messages: { content: string }[] };
      expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
      expect(JSON.stringify(body.messages)).not.toContain('ana@example.com');
      const { call } = (await calls.findCall(businessId, callId, Math.floor(Date.now() / 1000)))!;
      expect(typeof call.summary).toBe('string');
      expect(typeof call.intent).toBe('string');
      expect(call.outcome).toEqual(expect.any(String));
      expect(call).toHaveProperty('caller_name');
      const analysis = call.analysis as { summary: string; success_evaluation: unknown; structured_data: Record<string, unknown> };
      expect(analysis.summary).toBe(call.summary);
      expect(Object.keys(analysis.structured_data).sort()).toEqual(STRUCTURED.map((f) => f.name).sort());
      const data = analysis.structured_data;
      if (data.appointment_date !== null) expect(data.appointment_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (data.party_size !== null) expect(typeof data.party_size).toBe('number');
      if (data.new_patient !== null) expect(typeof data.new_patient).toBe('boolean');
      if (data.service !== null) expect(['cleaning', 'filling']).toContain(data.service);
      expect(JSON.stringify(call)).not.toContain('ana@example.com');
      if (scale === 'score_10') expect(call.score).toEqual(expect.any(Number));
      if (scale === 'pass_fail') expect(['pass', 'fail']).toContain(analysis.success_evaluation);
      if (scale === 'descriptive') expect(call.score).toBeNull();
      expect(published).toEqual([
        { type: 'call.completed', detail: expect.objectContaining({ business_id: businessId, call_id: callId }) },
      ]);
      expect(published[0]!.detail.event_id).not.toBe(event.detail.event_id);
    },
  );

  it('gives a never-connected call its outcome with zero LLM requests', async () => {
    // Arrange
    const { callId, event } = await seed('no_answer', {});
    const before = openai.requests.length;
    published.length = 0;
    // Act
    const result = await analyzeCall(event, deps());
    // Assert
    expect(result).toBe('outcome_only');
    expect(openai.requests.length).toBe(before);
    expect((await calls.getCallRecord(businessId, callId))!.outcome).toBe('no_answer');
    expect(published.map((e) => e.type)).toEqual(['call.completed']);
  });

  it('is idempotent: a repeated call.ended only re-publishes call.completed with the same event id', async () => {
    // Arrange
    const { event } = await seed('caller_hung_up', {});
    published.length = 0;
    await analyzeCall(event, deps());
    const requests = openai.requests.length;
    // Act
    const again = await analyzeCall(event, deps());
    // Assert
    expect(again).toBe('republished');
    expect(openai.requests.length).toBe(requests);
    expect(published).toHaveLength(2);
    expect(published[1]!.detail.event_id).toBe(published[0]!.detail.event_id);
  });

  it('throws on a provider failure so it is retried, and records analysis_error visibly after the last attempt', async () => {
    // Arrange
    const { callId, event } = await seed('caller_hung_up', {});
    published.length = 0;
    openai.failNext({ kind: 'status', status: 500 }, 2);
    // Act
    const first = analyzeCall(event, deps(2));
    await expect(first).rejects.toThrow();
    const last = await analyzeCall(event, deps(2));
    // Assert
    expect(last).toBe('failed');
    const call = (await calls.getCallRecord(businessId, callId))!;
    expect(call.analysis_error).toMatchObject({ message: expect.any(String) });
    expect(call.analysis).toMatchObject({ error: expect.any(String) });
    expect(call.outcome).toBe('unresolved');
    expect(published.map((e) => e.type)).toEqual(['call.completed']);
  });
});

describe('HIPAA (advanced.hipaa): analysed from the call.ended event, nothing stored in clear', () => {
  it("analyses the event's redacted transcript (every redaction kind) and stores a redacted analysis", async () => {
    // Arrange: the assistant asks for no redaction; HIPAA masks every kind anyway
    const { callId, event } = await seed('caller_hung_up', { structured: STRUCTURED }, [], { advanced: { hipaa: true } });
    const before = openai.requests.length;
    // Act
    const result = await analyzeCall(event, deps());
    // Assert: one analysis request, on the redacted transcript
    expect(result).toBe('analysed');
    const asked = openai.requests.slice(before);
    expect(asked).toHaveLength(1);
    const prompt = JSON.stringify(asked[0]!.body);
    expect(prompt).toContain('Book a cleaning');
    expect(prompt).toContain('[email]');
    expect(prompt).not.toContain('ana@example.com');
    const call = (await calls.getCallRecord(businessId, callId))!;
    expect(call.summary).toContain('asked: "Book a cleaning on [dob], my email is [email]".');
    expect(call.intent).toBe('Book an appointment');
    expect(call.outcome).toBe('unresolved');
    expect(call.score).toBe(4);
    expect(JSON.stringify(call)).not.toContain('ana@example.com');
    const detail = (await calls.findCall(businessId, callId, Math.floor(Date.now() / 1000)))!.detail;
    expect(detail.transcript).toEqual([]);
  });

  it('a HIPAA call.ended without its transcript (an ending the sweeper finished) gets the outcome alone, with no LLM request', async () => {
    // Arrange
    const { callId, event } = await seed('caller_hung_up', {}, [], { advanced: { hipaa: true } });
    const { transcript: _dropped, ...withoutTranscript } = event.detail;
    const before = openai.requests.length;
    // Act
    const result = await analyzeCall({ type: event.type, detail: withoutTranscript }, deps());
    // Assert
    expect(result).toBe('outcome_only');
    expect(openai.requests.length).toBe(before);
    expect((await calls.getCallRecord(businessId, callId))!.outcome).toBe('unresolved');
  });
});

/** A caller number no other test in this file uses. */
const freshNumber = () => `+1${businessId}${String(nextId++).padStart(4, '0')}`;

/** A model that answers with a fixed summary (the sandbox's summary quotes the already-redacted transcript). */
const saying = (summary: string): AnalysisModel => ({
  analyse: async () => ({
    summary,
    success_evaluation: 'pass',
    outcome: 'appointment_booked',
    intent: 'booking',
    caller_name: null,
    structured_data: {},
  }),
});

describe('caller memory (advanced.memory)', () => {
  it('remembers the redacted summary for an inbound caller, expiring with the call', async () => {
    // Arrange
    const caller = freshNumber();
    const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
    const ended = '2026-03-02T10:00:00.000Z';
    const { callId, event } = await seed('caller_hung_up', {}, ['email'], {
      call: { from_number: caller, ended_at: ended, expires_at: expiresAt },
    });
    // Act
    await analyzeCall(event, deps(undefined, saying('Ana (ana@example.com) booked a cleaning.')));
    // Assert
    expect(await memory.recall(businessId, caller)).toEqual([
      { call_id: callId, ended_at: ended, summary: 'Ana ([email]) booked a cleaning.', outcome: 'appointment_booked' },
    ]);
    const afterExpiry = new CallerMemoryRepository(db, () => expiresAt);
    expect(await afterExpiry.recall(businessId, caller)).toEqual([]);
  });

  it('remembers an outbound call under the number that was called', async () => {
    // Arrange
    const callee = freshNumber();
    const { callId, event } = await seed('caller_hung_up', {}, [], {
      call: { direction: 'outbound', from_number: '+15550100001', to_number: callee },
    });
    // Act
    await analyzeCall(event, deps(undefined, saying('Confirmed the appointment.')));
    // Assert
    expect((await memory.recall(businessId, callee)).map((e) => e.call_id)).toEqual([callId]);
  });

  it.each([
    ['memory is off', { memory: false }, 'Booked.'],
    ['hipaa is on', { hipaa: true }, 'Booked.'],
    ['the summary is empty', {}, '  '],
  ] as const)('remembers nothing when %s', async (_case, advanced, summary) => {
    // Arrange
    const caller = freshNumber();
    const { event } = await seed('caller_hung_up', {}, [], { advanced, call: { from_number: caller } });
    // Act
    const result = await analyzeCall(event, deps(undefined, saying(summary)));
    // Assert
    expect(result).toBe('analysed');
    expect(await memory.recall(businessId, caller)).toEqual([]);
  });
});
