import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step, scenario } from '../../../media-service/src/sandbox/scenario-script';
import { keys } from '../../../shared/db/table';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import {
  callScripted,
  carrierCall,
  getCall,
  llmRequestsWith,
  placeCall,
  QUIET,
  tenantWithAssistant,
  waitForAssistant,
} from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';
import { strictResponseErrors } from '../../support/openapi-strict';

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };

describe.concurrent('calls end to end over the sandbox carrier and providers', () => {
  it('an outbound call: greeting with variables, two caller turns, goodbye, end_call; transcript, metrics and events', T, async () => {
    // Arrange
    const config = { first_message: 'Hi {{name}}, this is Acme Dental calling about your visit.', advanced: QUIET };
    const steps = [
      waitForAssistant(),
      step.say('Are you open on Saturday mornings?'),
      waitForAssistant(),
      step.say('Great, thank you. Goodbye!'),
      waitForAssistant(),
      step.hangup(),
    ];
    const reads: string[] = [];
    const counter = 'reads-outbound-e2e';
    stack.core.db.doc.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetItemCommand') reads.push(JSON.stringify((args.input as { Key?: unknown }).Key));
        return next(args);
      },
      { step: 'initialize', name: counter },
    );
    // Act
    const { tenant, callId, to } = await callScripted(stack, config, steps, { name: 'Sam' });
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // The carrier's completed callback has been answered.
    const completed = (entry: { kind: string; params: Record<string, string>; httpStatus?: number }) =>
      entry.kind === 'status' && entry.params.CallStatus === 'completed' && entry.httpStatus !== undefined;
    await stack.carrier.waitFor(carrierCall(stack, to).sid, (record) => record.callbacks.some(completed), CALL_HANG_MS);
    stack.core.db.doc.middlewareStack.remove(counter);
    // Assert
    // The session reads its call neither to attach its stream nor to end it (it did both before).
    // The carrier's completed callback reads it only when the session has already left (timing).
    expect(reads.filter((key) => key === JSON.stringify(keys.call(tenant.businessId, callId))).length).toBeLessThanOrEqual(1);
    expect(call).toMatchObject({ status: 'ended', ended_reason: 'assistant_ended', direction: 'outbound' });
    expect(call.started_at).not.toBeNull();
    expect(detail.transcript.map(({ role, text, interrupted }) => ({ role, text, interrupted }))).toEqual([
      { role: 'assistant', text: 'Hi Sam, this is Acme Dental calling about your visit.', interrupted: false },
      { role: 'user', text: 'Are you open on Saturday mornings?', interrupted: false },
      {
        role: 'assistant',
        text: "We're open Monday through Friday from nine to five, and Saturday mornings until noon.",
        interrupted: false,
      },
      { role: 'user', text: 'Great, thank you. Goodbye!', interrupted: false },
      { role: 'assistant', text: 'Thank you for your time. Have a great day, goodbye!', interrupted: false },
      { role: 'tool', text: 'end_call', interrupted: false },
    ]);
    const starts = detail.transcript.map((entry) => entry.start_ms);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    const metrics = detail.metrics as Record<string, any>;
    expect(metrics.turns).toHaveLength(2);
    for (const turn of metrics.turns) {
      expect(turn.latency_ms).toBeGreaterThan(0);
      expect(turn.llm_first_token_ms).toBeGreaterThanOrEqual(0);
      expect(turn.tts_first_byte_ms).toBeGreaterThanOrEqual(0);
      expect(turn.first_audio_sent_ms).toBeGreaterThanOrEqual(0);
    }
    expect(metrics).toMatchObject({
      interruptions: 0,
      sandbox: true,
      // The vendor each sandbox stands in for, so a call says which recogniser, model and voice it ran on
      providers: { stt: 'deepgram-sandbox', llm: 'openai-sandbox', tts: 'deepgram-sandbox', telephony: 'twilio-sandbox' },
    });
    expect(metrics.llm_tokens.output).toBeGreaterThan(0);
    expect(metrics.tts_characters).toBeGreaterThan(100);
    expect(metrics.stt_seconds).toBeGreaterThan(1);
    expect(metrics.duration_s).toBeGreaterThanOrEqual(1);
    expect(stack.bus.of(callId)).toEqual(['call.started', 'call.ended']);
    // What GET /calls/{id} returns is exactly what the OpenAPI document describes (no field left out).
    expect(strictResponseErrors('CallDetail', await getCall(tenant, callId))).toEqual([]);
  });

  it('the default sandbox callee (any ordinary number) has a whole conversation', T, async () => {
    // Act
    const { tenant, callId } = await placeCall(stack, { advanced: QUIET }, uniqueNumber());
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.status).toBe('ended');
    const heard = detail.transcript
      .filter((entry) => entry.role === 'user')
      .map((entry) => entry.text)
      .join(' ');
    for (const line of ['Hello, this is Sam speaking.', 'are you open on Saturday mornings?', 'Tuesday at ten works for me.', 'Goodbye!'])
      expect(heard).toContain(line);
  });

  it('an inbound call: signed voice webhook → the number’s default assistant answers; direction inbound', T, async () => {
    // Arrange
    const { tenant } = await tenantWithAssistant(stack, { first_message: 'Thanks for calling Acme Dental.', advanced: QUIET });
    const numbers = (await (await tenant.request('GET', '/phone-numbers')).json()) as { data: { number: string }[] };
    const ours = numbers.data[0]!.number;
    const caller = uniqueNumber();
    const failedUpdates: unknown[] = [];
    const counter = `failed-updates-${caller}`;
    stack.core.db.doc.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } catch (error) {
          if (context.commandName === 'UpdateItemCommand') failedUpdates.push((args.input as { Key?: unknown }).Key);
          throw error;
        }
      },
      { step: 'initialize', name: counter },
    );
    // Act
    const { callSid } = stack.carrier.startInboundCall({
      from: caller,
      to: ours,
      voiceUrl: `http://127.0.0.1:${stack.media.port}/twilio/voice`,
      scenario: scenario('inbound', [
        waitForAssistant(),
        step.say('Hi, I would like to book a cleaning.'),
        waitForAssistant(),
        step.say('Okay, goodbye!'),
        waitForAssistant(),
        step.hangup(),
      ]),
    });
    await stack.carrier.whenEnded(callSid, CALL_HANG_MS);
    const list = (await (await tenant.request('GET', '/calls?direction=inbound')).json()) as { data: { id: number }[] };
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, list.data[0]!.id);
    stack.core.db.doc.middlewareStack.remove(counter);
    // Assert
    expect(call).toMatchObject({ direction: 'inbound', from_number: caller, to_number: ours, status: 'ended' });
    // The voice webhook marked the call answered before its stream started: the session does not try again.
    expect(failedUpdates).not.toContainEqual(keys.call(tenant.businessId, call.id));
    expect(detail.transcript[0]).toMatchObject({ role: 'assistant', text: 'Thanks for calling Acme Dental.' });
    expect(detail.transcript.some((entry) => entry.role === 'user' && entry.text === 'Hi, I would like to book a cleaning.')).toBe(true);
  });

  it.each([
    ['+15005550001', 'busy', 'busy'],
    ['+15005550002', 'no_answer', 'no_answer'],
    ['+15005550007', 'failed', 'failed'],
    // A 500 to the create request may have placed the call: ended at once, never dialled again
    // (its outcome, `failed`, comes with the analysis this stack does not run).
    ['+15005550009', 'error', null],
  ])('a call to %s ends %s with no conversation', T, async (to, endedReason, outcome) => {
    // Act
    const { tenant, callId } = await placeCall(stack, {}, to);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call).toMatchObject({ status: 'ended', ended_reason: endedReason, outcome, duration_s: 0 });
    expect(detail.transcript).toEqual([]);
  });

  it('records both sides as a two-channel WAV in S3 and GET /calls/{id} links it', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello there.', advanced: { ...QUIET, recording: true } }, [
      waitForAssistant(),
      step.say('Bye bye now.'),
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.recording_key).toBe(`recordings/${tenant.businessId}/${callId}.wav`);
    const object = await stack.s3.send(new GetObjectCommand({ Bucket: stack.bucket, Key: detail.recording_key! }));
    const wav = Buffer.from(await object.Body!.transformToByteArray());
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(2); // channels: caller left, assistant right
    expect(wav.length).toBeGreaterThan(44 + 8000 * 2 * 2); // more than a second of audio
  });

  it('HIPAA: no recording and no transcript anywhere (DynamoDB, S3, logs)', T, async () => {
    // Act
    const secret = `My member number is ${Date.now()}, bye bye now.`;
    const { tenant, callId } = await callScripted(
      stack,
      { first_message: 'Hello there.', advanced: { recording: true, recording_notice: true, ai_disclosure: false, hipaa: true } },
      [waitForAssistant(), step.say(secret), waitForAssistant(), step.hangup()],
    );
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.recording_key).toBeNull();
    expect(detail.transcript).toEqual([]);
    expect(JSON.stringify(call)).not.toContain(secret);
    expect((await getCall(tenant, callId)).recording_url).toBeNull();
    const objects = await stack.s3.send(new ListObjectsV2Command({ Bucket: stack.bucket, Prefix: `recordings/${tenant.businessId}/` }));
    expect(objects.KeyCount ?? 0).toBe(0);
    expect(JSON.stringify(stack.logs)).not.toContain(secret.slice(0, 20));
  });

  it('speaks the AI disclosure and recording notice once, in the first utterance after a greeting with no question', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(
      stack,
      { first_message: 'Hello there.', advanced: { recording: true, recording_notice: true, ai_disclosure: true } },
      [waitForAssistant(), step.say('Okay, bye bye now.'), waitForAssistant(), step.hangup()],
    );
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const said = detail.transcript.filter((entry) => entry.role === 'assistant').map((entry) => entry.text);
    expect(said[0]).toMatch(/^Hello there\. I'm an AI assistant for Biz \w+\. This call is recorded\.$/);
    expect(said.filter((text) => text.includes('This call is recorded'))).toHaveLength(1);
  });

  it('transfer: the model calls transfer, call.transferred is published and the carrier dials the business line', T, async () => {
    // Arrange
    const { tenant, assistantId } = await tenantWithAssistant(stack, { first_message: 'Hello, Acme Dental.', advanced: QUIET });
    await stack.api.admin.setProfile(tenant.businessId, { transfer_number: '+15550142424' });
    const to = uniqueNumber();
    stack.carrier.registerScenario(
      to,
      scenario('wants a person', [waitForAssistant(), step.say('Can I talk to a person please?'), step.silence()]),
    );
    // Act
    const response = await tenant.request('POST', '/calls', { assistant_id: assistantId, to });
    const callId = ((await response.json()) as { id: number }).id;
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('transferred');
    expect(call.transferred_to).toBe('+15550142424');
    expect(stack.bus.of(callId)).toEqual(['call.started', 'call.transferred', 'call.ended']);
    expect(carrierCall(stack, to).dialed?.number).toBe('+15550142424');
    expect(detail.transcript.at(-1)).toMatchObject({ role: 'tool', text: 'transfer to +15550142424' });
  });

  it('end phrase: the assistant saying one of end_call_phrases ends the call (end_phrase)', T, async () => {
    // Act
    const config = {
      first_message: 'Hello.',
      builtin: { end_call: false },
      advanced: { ...QUIET, end_call_phrases: ['Have a great day'] },
    };
    const { tenant, callId } = await callScripted(stack, config, [waitForAssistant(), step.say('That is all, goodbye.'), step.silence()]);
    const { call } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('end_phrase');
  });

  it('keypad: DTMF digits reach the model as one caller turn after #', T, async () => {
    // Act
    const marker = `${Date.now() % 100000}`;
    const { tenant, callId } = await callScripted(stack, { first_message: `Please enter your code ${marker}.`, advanced: QUIET }, [
      waitForAssistant(),
      step.dtmf('1234#', { gapMs: 100 }),
      waitForAssistant(),
      step.say('Thanks, goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.transcript.filter((entry) => entry.role === 'user')[0]).toMatchObject({ text: '[keypad] 1 2 3 4 #' });
    const asked = llmRequestsWith(stack, marker).map((request) => JSON.stringify(request.body));
    expect(asked.some((body) => body.includes('[keypad] 1 2 3 4 #'))).toBe(true);
  });

  it('keypad off: digits are ignored', T, async () => {
    // Act
    const { tenant, callId } = await callScripted(stack, { first_message: 'Hello.', advanced: { ...QUIET, keypad: false } }, [
      waitForAssistant(),
      step.dtmf('9#', { gapMs: 100 }),
      step.pause(2000),
      step.say('Goodbye.'),
      waitForAssistant(),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(detail.transcript.some((entry) => entry.text.includes('[keypad]'))).toBe(false);
  });

  it('memory: summaries of the caller’s earlier calls to this business reach the model’s prompt', T, async () => {
    // Arrange
    const remembered = `Asked to move the cleaning to Friday ${Date.now()}.`;
    const steps = [waitForAssistant(), step.say('Hi, it is me again.'), waitForAssistant(), step.hangup()];
    const withMemory = await tenantWithAssistant(stack, { first_message: 'Hello again.', advanced: QUIET });
    const to = uniqueNumber();
    await stack.core.callerMemory.remember(withMemory.tenant.businessId, to, {
      call_id: 1,
      ended_at: '2026-11-20T10:00:00.000Z',
      summary: remembered,
      outcome: 'resolved',
    });
    stack.carrier.registerScenario(to, scenario('returning caller', steps));
    // Act
    const response = await withMemory.tenant.request('POST', '/calls', { assistant_id: withMemory.assistantId, to });
    const callId = ((await response.json()) as { id: number }).id;
    await stack.whenCallEnded(withMemory.tenant.businessId, callId);
    // Assert
    const prompts = llmRequestsWith(stack, 'Hi, it is me again.').map((request) => JSON.stringify(request.body));
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.every((body) => body.includes(remembered))).toBe(true);
  });

  it(
    'settings reach the providers on the wire: Flux thresholds and keyterms, Aura voice, speed and pronunciations, OpenAI model options',
    T,
    async () => {
      // Arrange
      const config = {
        first_message: 'Welcome to Acme Dental.',
        advanced: QUIET,
        transcriber: { keyterms: ['Acme Dental'], eot_threshold: 0.8, eager: true },
        voice: { voice_id: 'aura-2-orion-en', speed: 1.13, pronunciations: [{ word: 'Acme', say: 'Ack-mee' }] },
        model: { temperature: 0.9, max_tokens: 123, priority: true, race: true },
      };
      const marker = `What are your hours on day ${Date.now() % 1000}?`;
      // Act
      const { tenant, callId, to } = await callScripted(stack, config, [
        waitForAssistant(),
        step.say(marker),
        waitForAssistant(),
        step.hangup(),
      ]);
      await stack.whenCallEnded(tenant.businessId, callId);
      // Assert
      const flux = stack.deepgram.fluxConnections.find((connection) => connection.query.tag === carrierCall(stack, to).sid)!;
      expect(flux.query).toMatchObject({
        model: 'flux-general-en',
        encoding: 'mulaw',
        sampleRate: 8000,
        eotThreshold: 0.8,
        keyterms: ['Acme Dental'],
      });
      expect(flux.query.eagerEotThreshold).toBeCloseTo(0.6);
      const aura = stack.deepgram.auraConnections.find((connection) => connection.query.speed === 1.13)!;
      expect(aura.query).toMatchObject({ model: 'aura-2-orion-en', encoding: 'mulaw', sampleRate: 8000 });
      expect(JSON.stringify(aura.received)).toContain('Welcome to Ack-mee Dental.');
      const bodies = llmRequestsWith(stack, marker).map((request) => request.body as Record<string, unknown>);
      expect(bodies.length).toBeGreaterThanOrEqual(2); // race: two identical requests per reply
      for (const body of bodies)
        expect(body).toMatchObject({ temperature: 0.9, max_completion_tokens: 123, service_tier: 'priority', stream: true });
    },
  );

  it('background office: ambience keeps flowing to the caller between replies', T, async () => {
    // Act
    const { tenant, callId, to } = await callScripted(stack, { first_message: 'Hello.', advanced: { ...QUIET, background: 'office' } }, [
      waitForAssistant(),
      step.pause(3000),
      step.hangup(),
    ]);
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    const stream = carrierCall(stack, to).streams[0]!;
    const quietFrom = stream.openedAtMs! + detail.transcript[0]!.end_ms + 500;
    const frames = stream.received.filter((event) => event.event === 'media' && event.atMs >= quietFrom && event.atMs < quietFrom + 2000);
    expect(frames.length).toBeGreaterThanOrEqual(80); // ~100 frames of 20 ms in 2 s of silence
  });
});
