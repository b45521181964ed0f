import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../../media-service/src/sandbox/openai-wire';
import { readCall, transcriptLines } from '../../../../media-service/src/sandbox/call-reading';
import { sandboxAnalysis } from '../../../../media-service/src/sandbox/sandbox-analysis';
import { SandboxLlmScript } from '../../../../media-service/src/sandbox/sandbox-llm-script';
import { buildAnalysisMessages, parseAnalysisOutput } from '../../../../shared/domain/analysis';
import { buildAnalysisResponseFormat, type AnalysisConfig } from '../../../../shared/domain/analysis-schema';

const GREETING = 'assistant: Thanks for calling! This is Ava. How can I help you today?';

/** The analysis request exactly as analyze-call builds it, for a transcript and analysis settings. */
function analysisRequest(transcript: string[], cfg: Partial<AnalysisConfig> = {}): { cfg: AnalysisConfig; request: ChatRequest } {
  const full: AnalysisConfig = { summary_prompt: '', success_rubric: '', success_scale: 'score_10', structured: [], ...cfg };
  const messages = buildAnalysisMessages(full, transcript.join('\n'), 'Acme Dental');
  const wire = messages.map((message) => ({ role: message.role, content: message.content }));
  return { cfg: full, request: { model: 'gpt-4o-mini', messages: wire, response_format: buildAnalysisResponseFormat(full) } };
}

/** The sandbox's answer through the same parser the analysis uses (so it is valid output too). */
function analyse(transcript: string[], cfg: Partial<AnalysisConfig> = {}) {
  const { cfg: full, request } = analysisRequest(transcript, cfg);
  const text = new SandboxLlmScript().reply(request).text ?? '';
  return { raw: JSON.parse(text) as Record<string, unknown>, out: parseAnalysisOutput(full, text) };
}

const DEFAULT_CALL = [
  GREETING,
  'user: Hello, this is Sam speaking.',
  'assistant: I understand, you said: Hello, this is Sam speaking. I can help with that. Could you tell me a little more?',
  'user: Sure. Before that, are you open on Saturday mornings?',
  "assistant: We're open Monday through Friday from nine to five, and Saturday mornings until noon.",
  'user: Great, thank you. Goodbye!',
  'assistant: Thank you for calling. Have a great day, goodbye!',
  'tool: end_call',
];

const VOICEMAIL_CALL = [
  GREETING,
  "user: Hi, you've reached Jordan Lee. I can't take your call right now. Please leave a message after the tone.",
  'assistant: Hi, this is Ava from Acme Dental returning your call. Please call us back. Thanks!',
];

describe('sandbox analysis: reads the transcript', () => {
  it("summarises the caller's turns (never the greeting), with their name, what they asked, the outcome and score", () => {
    // Act
    const { out } = analyse(DEFAULT_CALL);
    // Assert
    expect(out.summary).toBe(
      'The caller, Sam, asked: "Before that, are you open on Saturday mornings?". The assistant answered the request. The caller ended the call politely.',
    );
    expect(out.summary).not.toContain('Thanks for calling');
    expect(out.intent).toBe('Opening hours');
    expect(out.caller_name).toBe('Sam');
    expect(out.outcome).toBe('resolved');
    expect(out.score).toBe(8);
  });

  it('is deterministic: the same transcript gives the same analysis', () => {
    expect(analyse(DEFAULT_CALL).raw).toEqual(analyse(DEFAULT_CALL).raw);
  });

  it.each([
    ['this is Sam', 'Hi, this is Sam. Can I book a cleaning?', 'Sam'],
    ['my name is …', 'My name is Sam Lee and I need to cancel my appointment.', 'Sam Lee'],
    ['… here', 'Sam here. Are you open today?', 'Sam'],
    ["I'm …", "Hello, I'm Priya from next door. Where are you located?", 'Priya'],
    ['no name said', "Hi, I'm calling about my bill.", null],
    ['a day is not a name', "It's Tuesday, are you open?", null],
    ['Spanish', 'Hola, soy Sam.', 'Sam'],
    ['French', "Bonjour, c'est Sam à l'appareil.", 'Sam'],
    ['German', 'Hallo, hier spricht Sam.', 'Sam'],
    ['Italian', 'Pronto, sono Sam.', 'Sam'],
    ['Dutch', 'Hallo, met Sam.', 'Sam'],
    ['someone met is not the caller', 'I met Dana last week, are you open today?', null],
  ])('caller name (%s)', (_case, said, name) => {
    expect(analyse([GREETING, `user: ${said}`]).out.caller_name).toBe(name);
  });

  it.each([
    ['Can I book an appointment for next week?', 'Book an appointment'],
    ['I need to reschedule my cleaning.', 'Change or cancel an appointment'],
    ['Please book me in for a cleaning.', 'Book an appointment'],
    ['How much is a whitening?', 'Prices'],
    ['Do you accept walk-ins for kids?', 'Do you accept walk-ins for kids'],
  ])('intent is what the caller asked: "%s"', (said, intent) => {
    expect(analyse([GREETING, `user: ${said}`]).out.intent).toBe(intent);
  });

  it('a request whose tool failed is not resolved, though a filler came first', () => {
    const { out } = analyse([
      GREETING,
      'user: Can you check order AB1234?',
      'assistant: Let me check that for you.',
      "tool: lookup_order: the business's system answered lookup_order with an error (HTTP 404)",
      "assistant: I'm sorry, that didn't work. Could you try again a little later?",
      'user: Okay, bye.',
    ]);
    expect(out.outcome).toBe('unresolved');
  });

  it('a request answered after a filler and a tool is resolved', () => {
    const { out } = analyse([
      GREETING,
      'user: Can you check order AB1234?',
      'assistant: Let me check that for you.',
      'tool: lookup_order: {"status":"shipped"}',
      'assistant: Here is what I found. status: shipped. Is there anything else I can help you with?',
      'user: No, thanks. Goodbye!',
    ]);
    expect(out.outcome).toBe('resolved');
  });

  it('a question answered with another question is not resolved', () => {
    const { out } = analyse([
      GREETING,
      'user: Can I book an appointment?',
      "assistant: I'd be happy to help you book that. What day and time work best for you?",
      'user: Thanks, bye.',
    ]);
    expect(out.outcome).toBe('unresolved');
    expect(out.summary).toContain('The request was not completed on the call.');
    expect(out.score).toBe(4);
  });

  it.each([
    ['score_10', 1],
    ['pass_fail', 'fail'],
  ] as const)('a voicemail is never resolved (%s)', (scale, evaluation) => {
    const { out } = analyse(VOICEMAIL_CALL, { success_scale: scale });
    expect(out.outcome).toBe('unresolved');
    expect(out.success_evaluation).toBe(evaluation);
    expect(out.summary).toBe('The call reached a voicemail greeting; nobody spoke with the assistant.');
    expect(out.caller_name).toBeNull();
  });

  it.each([
    ['only a hello', [GREETING, 'user: Hello?', 'assistant: Hi! How can I help?']],
    ['not a word', [GREETING, 'assistant: Are you still there?']],
  ])('a call with no conversation is never resolved (%s)', (_case, transcript) => {
    const { out } = analyse(transcript);
    expect(out.outcome).toBe('unresolved');
    expect(out.score).toBe(1);
    expect(out.intent).toBe(transcript.length === 3 ? 'No request was made.' : 'None: nobody spoke.');
  });

  it('an ask phrased as "Please email me …" is a request', () => {
    const { out } = analyse([
      GREETING,
      'user: Hi, this is Sam Lee. Please email me your opening hours at sam@example.com.',
      "assistant: Sure, I'll email that to sam@example.com.",
      'tool: email_caller: email 1a2b sent',
      "assistant: I've emailed you the details. Is there anything else I can help you with?",
      "user: That's all, thanks. Goodbye!",
    ]);
    expect(out.intent).toBe('Opening hours');
    expect(out.outcome).toBe('resolved');
    expect(out.summary).toContain('asked: "Please email me your opening hours');
  });

  it('a dissatisfied caller is not resolved even when answered', () => {
    const { out } = analyse([
      GREETING,
      'user: This is ridiculous, where are you located?',
      "assistant: We're at the address on our website, and there's free parking behind the building.",
    ]);
    expect(out.outcome).toBe('unresolved');
    expect(out.score).toBe(2);
  });
});

describe('sandbox analysis: a booking only when a booking tool result shows one', () => {
  const LEAD: Partial<AnalysisConfig> = {
    structured: [
      { name: 'contact_name', type: 'string' },
      { name: 'next_step', type: 'enum', options: ['meeting_booked', 'callback', 'send_information', 'none'] },
      { name: 'booked', type: 'boolean' },
    ],
  };
  const asked = [GREETING, "user: This is Dana Reyes. I'd like to book a meeting booked for Tuesday."];

  it('talk of a meeting books nothing', () => {
    const { out } = analyse([...asked, 'assistant: What time on Tuesday suits you?'], LEAD);
    expect(out.structured_data).toEqual({ contact_name: 'Dana Reyes', next_step: 'none', booked: false });
    expect(out.outcome).toBe('unresolved');
  });

  it('a failed booking tool books nothing', () => {
    const { out } = analyse([...asked, 'tool: book_appointment failed: slot_taken', 'assistant: That time is taken.'], LEAD);
    expect(out.structured_data).toMatchObject({ next_step: 'none', booked: false });
    expect(out.outcome).toBe('unresolved');
  });

  it('a booking tool result is a booking', () => {
    const { out } = analyse([...asked, 'tool: book_appointment', 'assistant: You are booked for Tuesday at ten.'], LEAD);
    expect(out.structured_data).toEqual({ contact_name: 'Dana Reyes', next_step: 'meeting_booked', booked: true });
    expect(out.outcome).toBe('appointment_booked');
    expect(out.summary).toContain('An appointment was booked.');
    expect(out.score).toBe(9);
  });

  it('a booking whose confirmation email failed is still a booking', () => {
    const { out } = analyse([
      ...asked,
      'tool: book_appointment: booking 57 confirmed; caller texted, caller email failed, team emailed',
      'assistant: You are booked for Tuesday at ten.',
    ]);
    expect(out.outcome).toBe('appointment_booked');
  });

  it.each([
    ['reschedule_appointment: appointment 61 moved; caller texted, no caller email, team emailed', 'resolved'],
    ['cancel_appointment: appointment 61 cancelled; caller texted, no caller email, team emailed', 'resolved'],
    ['reschedule_appointment failed: not_found', 'unresolved'],
  ])('a move or cancellation is done by its tool: %s → %s', (tool, outcome) => {
    const { out } = analyse([
      GREETING,
      'user: Hi, this is Sam Lee. I need to move my appointment to Monday at 2pm.',
      'assistant: Let me look up your appointment.',
      'tool: find_appointments: 1 upcoming found',
      `tool: ${tool}`,
      'assistant: Done. Is there anything else I can help you with?',
      'user: No, that is all. Thanks, goodbye!',
    ]);
    expect(out.outcome).toBe(outcome);
    expect(out.intent).toBe('Change or cancel an appointment');
  });

  it('a transfer tool result is a transfer', () => {
    const { out } = analyse([GREETING, 'user: Can I speak to a person?', 'tool: transfer to +15550100999']);
    expect(out.outcome).toBe('transferred');
    expect(out.intent).toBe('Speak to a person');
  });
});

describe('transcript lines', () => {
  it('reads role lines, joins continuation lines, and ignores what is outside the fence', () => {
    const lines = transcriptLines('ignore this\n<transcript>\nassistant: Hi\nuser: one\ntwo\ntool: end_call\n</transcript>\nuser: not me');
    expect(lines).toEqual([
      { role: 'assistant', text: 'Hi' },
      { role: 'user', text: 'one two' },
      { role: 'tool', text: 'end_call' },
    ]);
    expect(readCall(lines).callerTurns).toEqual(['one two']);
  });

  it('the analysis request with no transcript still gets a valid answer', () => {
    const { request } = analysisRequest([]);
    expect(sandboxAnalysis(request)).toMatchObject({ outcome: 'unresolved', caller_name: null });
  });
});
