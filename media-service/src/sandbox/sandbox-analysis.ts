import { ANALYSIS_SCHEMA_NAME, type LlmOutcome } from '../../../shared/domain/analysis-schema';
import { readCall, sentencesOf, transcriptLines, type CallReading } from './call-reading';
import { sampleJsonSchema } from './json-schema-sample';
import { messageText, type ChatRequest } from './openai-wire';

/**
 * The sandbox's answer to the post-call analysis request (`json_schema` named `call_analysis`,
 * shared/domain/analysis-schema.ts): a faithful, deterministic reading of the transcript
 * ({@link readCall}) instead of a sample of the schema. The summary and intent come from the
 * caller's own turns, the caller's name from what they said, the outcome and score from how the
 * call went: a voicemail or a call where nobody spoke is never `resolved`, and a booking is reported
 * only when a booking tool's result is in the transcript.
 */

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Outcomes that count as the call having succeeded (pass, a high score). */
const SUCCEEDED: ReadonlySet<LlmOutcome> = new Set(['resolved', 'appointment_booked', 'message_taken', 'transferred']);

/**
 * True when the request is the post-call analysis: its strict schema's name, with the properties
 * the analysis asks for (another schema under that name still gets the schema sampler).
 */
export function isAnalysisRequest(request: ChatRequest): boolean {
  const format = request.response_format;
  if (format?.type !== 'json_schema' || format.json_schema.name !== ANALYSIS_SCHEMA_NAME) return false;
  const properties = format.json_schema.schema?.properties;
  return isSchema(properties) && ['summary', 'outcome', 'intent', 'caller_name'].every((name) => name in properties);
}

/** The reading of the call the analysis request carries (its last user message). */
export function readAnalysisRequest(request: ChatRequest): CallReading {
  const user = request.messages.filter((message) => message.role === 'user').at(-1);
  return readCall(transcriptLines(user ? messageText(user) : ''));
}

/** The call's outcome, from what the transcript shows happened. */
export function outcomeOf(reading: CallReading): LlmOutcome {
  if (reading.voicemail || !reading.conversation) return 'unresolved';
  if (reading.booked) return 'appointment_booked';
  if (reading.transferred) return 'transferred';
  if (reading.messageTaken) return 'message_taken';
  // An appointment asked for is done only by a booking tool (above), or a move or cancellation by
  // its tool, however the assistant replied.
  const changeDone = reading.topic === 'Change or cancel an appointment' && reading.appointmentChanged;
  const needsBooking = reading.topic?.includes('appointment') === true && !changeDone;
  return reading.requests.length > 0 && reading.answered && !reading.negative && !needsBooking ? 'resolved' : 'unresolved';
}

/** A 1..10 score: 1 with nobody to talk to, higher as more of what the caller wanted got done. */
export function scoreOf(reading: CallReading, outcome: LlmOutcome): number {
  if (reading.voicemail || !reading.conversation) return 1;
  if (outcome === 'appointment_booked') return 9;
  if (outcome === 'resolved') return reading.farewell ? 8 : 7;
  if (SUCCEEDED.has(outcome)) return 7;
  return reading.negative ? 2 : 4;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function unquoted(sentence: string): string {
  return clip(sentence.replaceAll('"', "'"), 160);
}

/** What the caller asked, in a few words: the subject's label, else their own words. */
export function intentOf(reading: CallReading): string {
  if (reading.voicemail) return 'None: the call reached a voicemail.';
  const main = reading.requests[0];
  if (main === undefined) return reading.callerTurns.length > 0 ? 'No request was made.' : 'None: nobody spoke.';
  if (reading.topic !== null) return reading.topic;
  const words = main
    .replace(/[.!?]+$/, '')
    .split(/\s+/)
    .slice(0, 12)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const DONE: Partial<Record<LlmOutcome, string>> = {
  appointment_booked: 'An appointment was booked.',
  transferred: 'The assistant transferred the call to a person.',
  message_taken: 'The assistant took a message for the team.',
  resolved: 'The assistant answered the request.',
};

/** Two or three sentences from the caller's turns: who, what they asked, what was done, how it ended. */
export function summaryOf(reading: CallReading, outcome: LlmOutcome): string {
  if (reading.voicemail) return 'The call reached a voicemail greeting; nobody spoke with the assistant.';
  if (!reading.conversation)
    return reading.callerTurns.length === 0
      ? 'No conversation took place: the other party never spoke.'
      : 'No conversation took place: the other party only said a greeting.';
  const who = reading.callerName ? `The caller, ${reading.callerName},` : 'The caller';
  const [main, also] = reading.requests;
  const said = reading.callerTurns.flatMap(sentencesOf).find((sentence) => sentence.split(/\s+/).length >= 2);
  const parts = [
    main !== undefined
      ? `${who} asked: "${unquoted(main)}".`
      : `${who} said: "${unquoted(said ?? reading.callerTurns[0] ?? '')}" but made no request.`,
  ];
  if (also !== undefined) parts.push(`They also asked: "${unquoted(also)}".`);
  parts.push(DONE[outcome] ?? (main !== undefined ? 'The request was not completed on the call.' : ''));
  if (reading.negative) parts.push('The caller sounded dissatisfied.');
  else if (reading.farewell) parts.push('The caller ended the call politely.');
  return parts.filter((part) => part !== '').join(' ');
}

function evaluationFor(schema: Schema | undefined, reading: CallReading, outcome: LlmOutcome): unknown {
  if (schema?.type === 'integer') return scoreOf(reading, outcome);
  if (Array.isArray(schema?.enum)) return SUCCEEDED.has(outcome) ? 'pass' : 'fail';
  if (reading.voicemail || !reading.conversation) return 'Nobody spoke with the assistant, so the call could not meet the rubric.';
  return SUCCEEDED.has(outcome) ? 'The caller got what they asked for on the call.' : 'The caller’s request was not completed on the call.';
}

/** Types a field schema allows (`type` may be a list). */
function typesOf(schema: Schema): unknown[] {
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** One structured value corrected by the reading: the caller's name, and no booking that did not happen. */
function correctField(name: string, schema: Schema, value: unknown, reading: CallReading, outcome: LlmOutcome): unknown {
  const nullable = typesOf(schema).includes('null');
  const options = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (typesOf(schema).includes('boolean')) {
    if (/book/i.test(name)) return reading.booked;
    if (/resolved|success/i.test(name)) return SUCCEEDED.has(outcome);
    return value;
  }
  if (/(^|_)name$/i.test(name) && !/company|business|product|service/i.test(name) && typesOf(schema).includes('string'))
    return reading.callerName ?? (nullable ? null : value);
  const bookedOption = options?.find((option) => typeof option === 'string' && /booked/i.test(option));
  if (bookedOption !== undefined && reading.booked) return bookedOption;
  if (typeof value === 'string' && /booked/i.test(value) && !reading.booked) {
    if (options?.includes('none')) return 'none';
    return nullable ? null : (options?.find((option) => typeof option === 'string' && !/booked/i.test(option)) ?? value);
  }
  return value;
}

/** The structured fields: values drawn from the caller's turns, then corrected by the reading. */
function structuredFor(schema: Schema, reading: CallReading, outcome: LlmOutcome): Record<string, unknown> {
  const sampled = sampleJsonSchema(schema, reading.callerTurns.join('\n'));
  const values = isSchema(sampled) ? sampled : {};
  const properties = isSchema(schema.properties) ? schema.properties : {};
  return Object.fromEntries(
    Object.entries(properties).map(([name, field]) => [
      name,
      correctField(name, isSchema(field) ? field : {}, values[name] ?? null, reading, outcome),
    ]),
  );
}

/**
 * The analysis JSON for an analysis request, valid against its strict schema: summary,
 * success_evaluation (integer, pass/fail or text, as the schema asks), outcome, intent,
 * caller_name and, when the schema has them, the structured fields.
 */
export function sandboxAnalysis(request: ChatRequest): Record<string, unknown> {
  const format = request.response_format;
  const schema = format?.type === 'json_schema' && isSchema(format.json_schema.schema) ? format.json_schema.schema : {};
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const reading = readAnalysisRequest(request);
  const outcome = outcomeOf(reading);
  const evaluation = properties.success_evaluation;
  const answer: Record<string, unknown> = {
    summary: summaryOf(reading, outcome),
    success_evaluation: evaluationFor(isSchema(evaluation) ? evaluation : undefined, reading, outcome),
    outcome,
    intent: intentOf(reading),
    caller_name: reading.callerName,
  };
  if (isSchema(properties.structured_data)) answer.structured_data = structuredFor(properties.structured_data, reading, outcome);
  return answer;
}
