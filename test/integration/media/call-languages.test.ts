import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { uniqueNumber } from '../../support/api-harness';
import { callScripted, carrierCall, getCall, llmRequestsWith, placeCall, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Whole calls on the recogniser, voice and fixed lines a setting picks: `transcriber.provider:
 * openai` (the sandbox OpenAI's realtime transcription session hears the caller) and a Spanish
 * assistant (Flux multilingual told `es`, the Spanish Aura voice, the notice in Spanish, the
 * sandbox callee and model answering in Spanish).
 */
let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

const T = { timeout: CALL_TEST_MS };

/** The sandbox's transcription connection for the call placed to `to` (by its call SID). */
const transcriptionOf = (to: string) => stack.openai.realtime.transcriptions.filter((record) => record.tag === carrierCall(stack, to).sid);
const fluxOf = (to: string) => stack.deepgram.fluxConnections.filter((record) => record.query.tag === carrierCall(stack, to).sid);
const said = (transcript: { role: string; text: string }[], role: string) =>
  transcript.filter((entry) => entry.role === role).map((entry) => entry.text);

describe.concurrent('languages and recognisers on whole calls', () => {
  it('transcriber.provider openai: the OpenAI transcription session hears the caller, whose turns reach the model', T, async () => {
    // Arrange
    const marker = `Are you open on Saturday mornings, order ${Date.now() % 100000}?`;
    const config = {
      first_message: 'Hello, Acme Dental.',
      transcriber: { provider: 'openai', keyterms: ['Acme Dental'], eot_threshold: 0.6 },
      advanced: QUIET,
    };
    const steps = [waitForAssistant(), step.say(marker), waitForAssistant(), step.say('Great, thank you. Goodbye!'), waitForAssistant()];
    // Act
    const { tenant, callId, to } = await callScripted(stack, config, [...steps, step.pause(3000), step.hangup()]);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert: the OpenAI transcriber ran, configured from the assistant; Flux never heard this call
    expect(fluxOf(to)).toEqual([]);
    const [session] = transcriptionOf(to);
    expect(session?.audioBytes).toBeGreaterThan(8000);
    expect(session?.session.audio.input).toMatchObject({
      format: { type: 'audio/pcmu' },
      transcription: { model: 'gpt-transcribe', language: 'en', keywords: ['Acme Dental'] },
      turn_detection: { type: 'server_vad', silence_duration_ms: 400 },
    });
    // The caller's words are the model's user turns, and the transcript is the conversation
    expect(call.ended_reason).toBe('assistant_ended');
    expect(detail.transcript.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'assistant', text: 'Hello, Acme Dental.' },
      { role: 'user', text: marker },
      { role: 'assistant', text: "We're open Monday through Friday from nine to five, and Saturday mornings until noon." },
      { role: 'user', text: 'Great, thank you. Goodbye!' },
      { role: 'assistant', text: 'Thank you for your time. Have a great day, goodbye!' },
      { role: 'tool', text: 'end_call' },
    ]);
    const last = llmRequestsWith(stack, marker).at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(last.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([marker, 'Great, thank you. Goodbye!']);
    // Metrics: both caller turns answered, no eager replies (OpenAI has no early end of turn); the recogniser's
    // label is the OpenAI transcriber's, `openai-sandbox` for its stand-in (`openai` with a key)
    const metrics = (await getCall(tenant, callId)).metrics;
    expect(metrics.turns).toHaveLength(2);
    expect(metrics.eager).toEqual({ started: 0, discarded: 0 });
    expect(metrics.stt_seconds).toBeGreaterThan(1);
    expect(metrics).toMatchObject({ providers: { stt: 'openai-sandbox' }, sandbox: true });
  });

  it('a Spanish assistant: Flux multilingual told es, the Spanish voice, the notice in Spanish, a Spanish conversation', T, async () => {
    // Arrange
    const greeting = `Hola, clínica Acme número ${Date.now() % 100000}.`;
    const config = {
      language: 'es',
      first_message: greeting,
      advanced: { recording: true, recording_notice: true, ai_disclosure: true },
    };
    // Act: the default sandbox caller (any ordinary number), who answers in the call's language
    const { tenant, callId, to } = await placeCall(stack, config, uniqueNumber());
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert: the recogniser and voice of the language
    expect(fluxOf(to).map((record) => record.query)).toEqual([
      expect.objectContaining({ model: 'flux-general-multi', languageHints: ['es'] }),
    ]);
    const aura = stack.deepgram.auraConnections.filter((record) => JSON.stringify(record.received).includes(greeting));
    expect(aura.map((record) => record.query.model)).toEqual(['aura-2-celeste-es']);
    // The notice in Spanish, in the first utterance; the caller and the model speak Spanish
    const assistant = said(detail.transcript, 'assistant');
    expect(assistant[0]).toMatch(/^Hola, clínica Acme número \d+\. Soy un asistente de IA de Biz \w+\. Esta llamada se graba\.$/);
    expect(said(detail.transcript, 'user')).toEqual([
      'Hola, soy Sam.',
      'Claro. Antes de eso, ¿abren los sábados por la mañana?',
      'El martes a las diez me va bien.',
      'Perfecto, gracias. ¡Adiós!',
    ]);
    expect(assistant).toContain('Abrimos de lunes a viernes de nueve a cinco, y los sábados por la mañana hasta el mediodía.');
    expect(assistant.at(-1)).toBe('Gracias por su tiempo. ¡Que tenga un buen día, adiós!');
    const call = await getCall(tenant, callId);
    expect(call).toMatchObject({ recording_notice_heard: true, ai_disclosure_heard: true });
  });

  it('a Spanish assistant on the OpenAI transcriber: the session is told es and the caller is heard in Spanish', T, async () => {
    // Arrange
    const greeting = `Hola, clínica Acme, llamada ${Date.now() % 100000}.`;
    const config = { language: 'es-MX', first_message: greeting, transcriber: { provider: 'openai' }, advanced: QUIET };
    // Act
    const { tenant, callId, to } = await placeCall(stack, config, uniqueNumber());
    const { detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(fluxOf(to)).toEqual([]);
    expect(transcriptionOf(to).map((record) => record.session.audio.input.transcription)).toEqual([
      expect.objectContaining({ model: 'gpt-transcribe', language: 'es' }),
    ]);
    expect(said(detail.transcript, 'user')).toEqual([
      'Hola, soy Sam.',
      'Claro. Antes de eso, ¿abren los sábados por la mañana?',
      'El martes a las diez me va bien.',
      'Perfecto, gracias. ¡Adiós!',
    ]);
    expect(said(detail.transcript, 'assistant').at(-1)).toBe('Gracias por su tiempo. ¡Que tenga un buen día, adiós!');
  });

  it('the OpenAI transcriber keeps the last words of a caller who hangs up right after saying them', T, async () => {
    // Arrange: the caller says goodbye and hangs up at once, before any end of turn could come
    const steps = [waitForAssistant(), step.say('Thanks so much, bye now.'), step.hangup()];
    // Act
    const { tenant, callId } = await callScripted(
      stack,
      { first_message: 'Hello from Acme.', transcriber: { provider: 'openai' }, advanced: QUIET },
      steps,
    );
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    // Assert
    expect(call.ended_reason).toBe('caller_hung_up');
    expect(detail.transcript.at(-1)).toMatchObject({ role: 'user', text: 'Thanks so much, bye now.' });
  });

  it('an inbound caller a Spanish business cannot take hears the apology in Spanish (<Say language>)', T, async () => {
    // Arrange: a business with no minutes left, whose default assistant speaks Spanish
    const tenant = await stack.api.newTenant({ minutes: 0 });
    expect((await tenant.request('POST', '/assistants', { config: { language: 'es' } })).status).toBe(200);
    const numbers = (await (await tenant.request('GET', '/phone-numbers')).json()) as { data: { number: string }[] };
    // Act
    const { callSid } = stack.carrier.startInboundCall({
      from: uniqueNumber(),
      to: numbers.data[0]!.number,
      voiceUrl: `http://127.0.0.1:${stack.media.port}/twilio/voice`,
    });
    const record = await stack.carrier.whenEnded(callSid, CALL_HANG_MS);
    // Assert
    expect(record.twiml.join('')).toContain('<Say language="es-ES">Lo sentimos, ahora mismo no podemos atender su llamada.');
    expect(record.said.join(' ')).toContain('Lo sentimos, ahora mismo no podemos atender su llamada.');
  });
});
