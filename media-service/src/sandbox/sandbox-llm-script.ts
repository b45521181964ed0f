import { sampleJsonSchema } from './json-schema-sample';
import { messageText, type ChatRequest } from './openai-wire';
import { isAnalysisRequest, sandboxAnalysis } from './sandbox-analysis';
import { toolIntentReply, toolResultReply } from './sandbox-tool-intents';
import { workflowReply } from './sandbox-workflow';

/**
 * The sandbox LLM's brain: a deterministic choice of reply for a chat-completions request, so a
 * sandbox call sounds like a plausible receptionist and tests can predict every word.
 *
 * - Scripted replies queued with {@link SandboxLlmScript.enqueue} answer the next requests, in order.
 * - The post-call analysis (`json_schema` named `call_analysis`) gets a faithful reading of the
 *   transcript (`sandbox-analysis.ts`); any other `json_schema` gets JSON that validates against
 *   the schema, drawn from the conversation (`json-schema-sample.ts`); `json_object` a small object.
 * - Otherwise: a greeting when the caller has not spoken, the tool's result spoken back after a
 *   tool result, a goodbye plus an `end_call` tool call (when that tool is offered) when the caller
 *   says goodbye, a built-in tool call when the caller's words ask for one and it is offered
 *   (`sandbox-tool-intents.ts`), and a receptionist answer keyed on the caller's last words.
 *
 * @example
 * ```ts
 * const script = new SandboxLlmScript();
 * script.enqueue({ toolCalls: [{ name: 'book_appointment', arguments: '{"day":"Tuesday"}' }] });
 * const openai = await OpenAiSandboxServer.start({ script });
 * ```
 */
export interface SandboxLlmReply {
  /** Assistant text; may be combined with tool calls (spoken before the tools run). */
  text?: string;
  /** Tool calls; `arguments` is JSON text. Ids are assigned by the server when omitted. */
  toolCalls?: { id?: string; name: string; arguments: string }[];
}

/** A scripted reply, or a function computing one from the request. */
export type ScriptedReply = SandboxLlmReply | ((request: ChatRequest) => SandboxLlmReply);

const GOODBYE =
  /\b(good ?bye|bye|that'?s all|that is all|nothing else|hang up)\b|adiós|au revoir|auf wiederhören|arrivederci|tot ziens|tchau|до свидания|अलविदा|失礼します/i;

/**
 * The sandbox receptionist's own lines in Spanish (the language the call is told to reply in,
 * read from the system prompt's `Reply in the language with code "es"` line); other languages get
 * the English lines, which the README's language matrix says.
 */
const SPANISH = {
  hours: 'Abrimos de lunes a viernes de nueve a cinco, y los sábados por la mañana hasta el mediodía.',
  booking: 'Con mucho gusto le ayudo a reservar. ¿Qué día y hora le vienen bien?',
  understood: (snippet: string) => `Entendido, ha dicho: ${snippet}. Puedo ayudarle con eso. ¿Podría contarme un poco más?`,
};

/** The system prompt of an outbound call says so ("You placed this call"): the sandbox never thanks the callee for calling. */
function placedCall(request: ChatRequest): boolean {
  const system = request.messages.find((m) => m.role === 'system' || m.role === 'developer');
  return system !== undefined && messageText(system).includes('You placed this call');
}

/** What the sandbox model says to open and to close a call, by language and by who rang whom. */
const LINES = {
  en: {
    inbound: {
      greeting: 'Hello! Thanks for calling. How can I help you today?',
      goodbye: 'Thank you for calling. Have a great day, goodbye!',
    },
    outbound: {
      greeting: 'Hello! I am calling from the team. Do you have a moment?',
      goodbye: 'Thank you for your time. Have a great day, goodbye!',
    },
  },
  es: {
    inbound: {
      greeting: '¡Hola! Gracias por llamar. ¿En qué puedo ayudarle?',
      goodbye: 'Gracias por llamar. ¡Que tenga un buen día, adiós!',
    },
    outbound: {
      greeting: '¡Hola! Le llamo de parte del equipo. ¿Tiene un momento?',
      goodbye: 'Gracias por su tiempo. ¡Que tenga un buen día, adiós!',
    },
  },
};

/** The opening and closing lines for this request's language and direction. */
function linesFor(request: ChatRequest): { greeting: string; goodbye: string } {
  return LINES[wantsSpanish(request) ? 'es' : 'en'][placedCall(request) ? 'outbound' : 'inbound'];
}

/** True when the request's system prompt asks for Spanish replies. */
function wantsSpanish(request: ChatRequest): boolean {
  const system = request.messages.find((m) => m.role === 'system' || m.role === 'developer');
  return system !== undefined && /Reply in the language with code "es(?:[-_][A-Za-z0-9]+)?"/.test(messageText(system));
}

const HUMAN = /\b(human|person|someone|transfer|manager)\b/i;

const INTENTS: { pattern: RegExp; reply: string }[] = [
  {
    pattern: /\b(book|appointment|schedule|reserve|booking)\b/i,
    reply: "I'd be happy to help you book that. What day and time work best for you?",
  },
  {
    pattern: /\b(cancel|reschedule|move)\b/i,
    reply: 'No problem, I can help you change that. Which appointment would you like to change?',
  },
  {
    pattern: /\b(hours|open|close|closing)\b/i,
    reply: "We're open Monday through Friday from nine to five, and Saturday mornings until noon.",
  },
  {
    pattern: /\b(price|cost|how much|fee|charge)\b/i,
    reply: 'Pricing depends on the service. Which service are you interested in, so I can give you an estimate?',
  },
  {
    pattern: /\b(where|address|location|directions)\b/i,
    reply: "We're at the address on our website, and there's free parking behind the building.",
  },
  { pattern: /\b(human|person|someone|transfer|manager)\b/i, reply: 'Of course, let me see who is available to take your call.' },
];

/** Deterministic reply selection for the sandbox OpenAI server. */
export class SandboxLlmScript {
  readonly #queue: ScriptedReply[] = [];
  /**
   * Whether the model says a line ("Let me check that for you.") as it calls a tool, which the call
   * engine plays before running the tool. Off, it calls tools without a word, as real models often
   * do (`npm run bench:knowledge` measures speculative retrieval both ways).
   */
  preambles = true;

  /** Queues replies for the next requests, in order (then the default behaviour resumes). */
  enqueue(...replies: ScriptedReply[]): void {
    this.#queue.push(...replies);
  }

  /** Scripted replies not yet used. */
  get pending(): number {
    return this.#queue.length;
  }

  /** The reply for `request`: the next scripted one, or the default conversation policy. */
  reply(request: ChatRequest): SandboxLlmReply {
    const scripted = this.#queue.shift();
    if (scripted) return typeof scripted === 'function' ? scripted(request) : scripted;
    const format = request.response_format;
    if (isAnalysisRequest(request)) return { text: JSON.stringify(sandboxAnalysis(request)) };
    if (format?.type === 'json_schema')
      return { text: JSON.stringify(sampleJsonSchema(format.json_schema.schema ?? {}, conversationText(request))) };
    if (format?.type === 'json_object') return { text: JSON.stringify({ reply: this.#converse(request).text ?? '' }) };
    return this.#converse(request);
  }

  #converse(request: ChatRequest): SandboxLlmReply {
    // Inside a workflow step, the step's own moves come first (sandbox-workflow.ts).
    const step = workflowReply(request);
    if (step) return step;
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return toolResultReply(request);
    const userText = [...request.messages].reverse().find((m) => m.role === 'user');
    const spanish = wantsSpanish(request);
    if (!userText) return { text: linesFor(request).greeting };
    const said = messageText(userText).trim();
    // A request in the same breath as the goodbye ("take a message …, thanks, bye") is acted on first:
    // words held over the notice arrive as one turn.
    const tool = spanish ? undefined : toolIntentReply(request, said);
    if (tool) return this.preambles || !tool.toolCalls ? tool : { toolCalls: tool.toolCalls };
    if (GOODBYE.test(said)) return goodbye(request);
    if (spanish) return { text: spanishReply(said) };
    if (HUMAN.test(said) && request.tools?.some((t) => t.function.name === 'transfer')) {
      return {
        text: 'Of course, let me transfer you to someone on the team.',
        toolCalls: [{ name: 'transfer', arguments: JSON.stringify({ reason: 'caller asked for a person' }) }],
      };
    }
    const intent = INTENTS.find((i) => i.pattern.test(said));
    if (intent) return { text: intent.reply };
    if (said === '') return { text: "Sorry, I didn't catch that. Could you say it again?" };
    const snippet = snippetOf(said);
    return { text: `I understand, you said: ${snippet}. I can help with that. Could you tell me a little more?` };
  }
}

function spanishReply(said: string): string {
  if (/\b(abren|abierto|horario|sábados?)\b/i.test(said)) return SPANISH.hours;
  if (/\b(reservar|cita|reserva)\b/i.test(said)) return SPANISH.booking;
  return SPANISH.understood(snippetOf(said));
}

function snippetOf(said: string): string {
  return said
    .split(/\s+/)
    .slice(0, 12)
    .join(' ')
    .replace(/\s*[.!?。！？]+$/, '');
}

function goodbye(request: ChatRequest): SandboxLlmReply {
  const { goodbye: text } = linesFor(request);
  const endCall = request.tools?.find((t) => t.function.name === 'end_call');
  if (!endCall) return { text };
  const args = sampleJsonSchema(endCall.function.parameters ?? { type: 'object', properties: {} }, conversationText(request));
  return { text, toolCalls: [{ name: 'end_call', arguments: JSON.stringify(args ?? {}) }] };
}

/** The conversation being answered or analysed: every non-system message, else everything. */
export function conversationText(request: ChatRequest): string {
  const spoken = request.messages.filter((m) => m.role !== 'system' && m.role !== 'developer');
  return (spoken.length > 0 ? spoken : request.messages).map(messageText).join('\n');
}
