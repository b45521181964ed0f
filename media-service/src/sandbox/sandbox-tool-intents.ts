import { messageText, type ChatRequest } from './openai-wire';
import { BOOKING_INTENTS } from './sandbox-booking-intents';
import type { SandboxLlmReply } from './sandbox-llm-script';
import { customToolReply, speakCustomResult, spokenExcerpt, SPOKEN_LINE_CHARS } from './sandbox-custom-tools';
import { todayFromPrompt } from './spoken-dates';
import { KNOWLEDGE_INTENT } from './sandbox-knowledge-intent';

/**
 * How the sandbox model uses the platform's built-in tools, so a sandbox call exercises them from
 * the caller's words alone: each intent names the tool, the words that ask for it, the arguments it
 * draws from the conversation, and how it speaks the tool's output back. Deterministic, so tests
 * predict every word. Adding a tool is adding an intent here (the booking tools' are in
 * `sandbox-booking-intents.ts`; docs/design.md "Adding a built-in tool").
 */
export interface ToolIntent {
  tool: string;
  /** The caller's words that ask for the tool. */
  asks: RegExp;
  /**
   * The call to make (by default of this intent's tool); or words to say instead when something the
   * tool needs is missing (the model asks for it); or undefined when the words are not for it after all.
   */
  call(words: IntentWords): ToolCallPlan | { ask: string } | undefined;
  /** What to say with the tool's successful output (or a reply that calls the next tool). */
  speak(output: Record<string, unknown>, words: IntentWords): string | SandboxLlmReply;
}

/** What an intent reads: the caller's latest words, everything they said, and the call's local date. */
export interface IntentWords {
  said: string;
  callerWords: string;
  /** `YYYY-MM-DD` from the prompt's "Today is …" line (booking offered), else undefined. */
  today: string | undefined;
  /** The system prompt (the business's facts: address, opening hours). */
  system: string;
}

/** A tool call an intent decided on, and what the model says as it makes it. */
export interface ToolCallPlan {
  saying: string;
  args: Record<string, unknown>;
  /** Another tool than the intent's own (a change starts with find_appointments). */
  tool?: string;
}

const URGENT = /\b(urgent|urgently|emergency|asap|right away)\b/i;
// The lead-in in any case ("This is", "this is"), the name capitalised as a transcript writes it.
const NAME = /\b(?:[Tt]his is|[Mm]y name is|[Mm]y name's|I am|I'm|[Ii]t's)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)/;
const NUMBER = /(\+?\d[\d\s().-]{6,}\d)/;

/** The caller's name, as the caller introduced themselves anywhere in the call. */
export function callerName(callerWords: string): string | undefined {
  return NAME.exec(callerWords)?.[1];
}

/** The message itself: what follows "message for X:" or "message:" (with the recipient kept), else the whole sentence. */
function messageBody(said: string): string {
  const forWhom = /\bmessage (for [A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)\s*[:,-]?\s*(.+)$/s.exec(said);
  if (forWhom) return `${capitalise(forWhom[1]!)}: ${forWhom[2]!.trim()}`;
  const colon = said.indexOf(':');
  return (colon >= 0 ? said.slice(colon + 1) : said).trim();
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const TAKE_MESSAGE_INTENT: ToolIntent = {
  tool: 'take_message',
  asks: /\b(take|leave|pass on) a message\b/i,
  call({ said, callerWords }) {
    const name = callerName(callerWords);
    if (!name) return { ask: 'Of course. May I have your name, please?' };
    const phone = NUMBER.exec(said)?.[1];
    const args = { name, message: messageBody(said), ...(phone && { phone }), urgent: URGENT.test(said) };
    return { saying: "Of course, I'll take that message for the team.", args };
  },
  speak: (output) =>
    output.team_notified === true
      ? "I've passed your message on to the team, and they've been notified. Is there anything else I can help you with?"
      : "I've saved your message for the team. Is there anything else I can help you with?",
};

export const NOTIFY_TEAM_INTENT: ToolIntent = {
  tool: 'notify_team',
  asks: /\b(alert|notify|tell) (the |your )?(team|staff|owner)\b/i,
  call: ({ said }) => ({ saying: "I'll alert the team right now.", args: { message: said.trim(), urgent: true } }),
  speak: () => "I've alerted the team, and someone will look at it as soon as they can. Is there anything else?",
};

/**
 * What the caller asked to get in writing, from the business facts in the system prompt (the
 * address or the opening hours when asked about), else a plain line that the details follow.
 */
function detailsAskedFor(said: string, system: string): string {
  const fact = (label: string) => new RegExp(`^${label}: (.+)$`, 'm').exec(system)?.[1];
  const address = /\b(address|directions|where)\b/i.test(said) ? fact('Address') : undefined;
  if (address) return `Our address: ${address}`;
  const hours = /\b(hours|open)\b/i.test(said) ? fact('Opening hours') : undefined;
  if (hours) return `Our opening hours: ${hours}`;
  return 'Thanks for calling. Here are the details we talked about; reply to this message or call us with any questions.';
}

/** An email address in the caller's words (the sandbox STT keeps it as said). */
export const EMAIL = /\b([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})\b/;

export const SEND_SMS_INTENT: ToolIntent = {
  tool: 'send_sms',
  asks: /\b(text|sms) me\b|\bsend me (a|that in a) text\b/i,
  call: ({ said, system }) => ({
    saying: "Sure, I'll text that to the number you're calling from.",
    args: { body: detailsAskedFor(said, system) },
  }),
  speak: () => "I've sent you a text with the details. Is there anything else I can help you with?",
};

// "$45", "45 dollars", "$45.50", "45 euros"
const AMOUNT = /(?:[$€£]\s?(\d+(?:\.\d{1,2})?)|\b(\d+(?:\.\d{1,2})?)\s?(?:dollars|euros|pounds|bucks)\b)/i;

/** What the payment is for: the words after "for" with the amount and an article left out ("for the $45 deposit" → "Deposit"). */
function paymentFor(said: string): string {
  const words = /\bfor\s+([^?.!,;]*[^\s?.!,;])/i.exec(said.replace(AMOUNT, ' '))?.[1] ?? '';
  const what = words
    .replace(/^(?:the|my|a|an|our)\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  return what === '' ? 'Payment' : capitalise(what);
}

export const PAYMENT_LINK_INTENT: ToolIntent = {
  tool: 'send_payment_link',
  asks: /\b(payment link|link to pay|pay (?:by|with a) (?:card|link))\b/i,
  call({ said, callerWords }) {
    const match = AMOUNT.exec(said) ?? AMOUNT.exec(callerWords);
    if (!match) return { ask: 'Of course. How much is the payment for?' };
    const amount = Number(match[1] ?? match[2]);
    return { saying: "Sure, I'll text you a secure payment link.", args: { amount, description: paymentFor(said) } };
  },
  speak: (output) =>
    `I've texted you a secure payment link for ${String(output.amount)}. You can pay on that page whenever you're ready. Is there anything else?`,
};

export const EMAIL_CALLER_INTENT: ToolIntent = {
  tool: 'email_caller',
  asks: /\b(e-?mail me|send me an e-?mail)\b/i,
  call({ said, callerWords, system }) {
    const email = EMAIL.exec(said)?.[1] ?? EMAIL.exec(callerWords)?.[1];
    if (!email) return { ask: 'Of course. What email address should I send it to?' };
    const name = callerName(callerWords);
    const body = [`Hello${name ? ` ${name}` : ''},`, '', detailsAskedFor(said, system), '', 'Thanks for calling.'].join('\n');
    // The read-back the tool's description asks for, before sending.
    return { saying: `Sure, I'll email that to ${email}.`, args: { email, subject: 'The details you asked for', body } };
  },
  speak: () => "I've emailed you the details. Is there anything else I can help you with?",
};

/** Every intent, in the order they are tried (a payment link before a plain text: "text me a payment link"). */
export const TOOL_INTENTS: readonly ToolIntent[] = [
  TAKE_MESSAGE_INTENT,
  NOTIFY_TEAM_INTENT,
  PAYMENT_LINK_INTENT,
  SEND_SMS_INTENT,
  EMAIL_CALLER_INTENT,
  ...BOOKING_INTENTS,
];

const offers = (request: ChatRequest, tool: string) => request.tools?.some((t) => t.function.name === tool) ?? false;

/** What the intents read from a request: the latest caller words given, everything they said, today. */
function intentWords(request: ChatRequest, said: string): IntentWords {
  const callerWords = request.messages
    .filter((m) => m.role === 'user')
    .map(messageText)
    .join('\n');
  const message = request.messages.find((m) => m.role === 'system' || m.role === 'developer');
  const system = message ? messageText(message) : '';
  return { said, callerWords, today: message ? todayFromPrompt(system) : undefined, system };
}

/** The tool call (or question) the caller's latest words ask for, when the request offers that tool. */
export function toolIntentReply(request: ChatRequest, said: string): SandboxLlmReply | undefined {
  const words = intentWords(request, said);
  for (const intent of TOOL_INTENTS) {
    if (!intent.asks.test(said) || !offers(request, intent.tool)) continue;
    const decided = intent.call(words);
    if (decided === undefined) continue;
    if ('ask' in decided) return { text: decided.ask };
    if (!offers(request, decided.tool ?? intent.tool)) continue;
    return { text: decided.saying, toolCalls: [{ name: decided.tool ?? intent.tool, arguments: JSON.stringify(decided.args) }] };
  }
  // A business's own tools, when no built-in is asked for (sandbox-custom-tools.ts has the rule);
  // then a question for the business's documents (sandbox-knowledge-intent.ts).
  return customToolReply(request, said, words.callerWords) ?? knowledgeReply(request, words);
}

function knowledgeReply(request: ChatRequest, words: IntentWords): SandboxLlmReply | undefined {
  if (!KNOWLEDGE_INTENT.asks.test(words.said) || !offers(request, KNOWLEDGE_INTENT.tool)) return undefined;
  const decided = KNOWLEDGE_INTENT.call(words);
  if (decided === undefined || 'ask' in decided) return undefined;
  return { text: decided.saying, toolCalls: [{ name: KNOWLEDGE_INTENT.tool, arguments: JSON.stringify(decided.args) }] };
}

/**
 * The words after a tool result (the request's last message): the intent's own line for a
 * success, and the error read back plainly for a failure, so the caller always hears what happened.
 */
export function toolResultReply(request: ChatRequest): SandboxLlmReply {
  const result = request.messages.at(-1)!;
  const asked = request.messages.flatMap((m) => m.tool_calls ?? []).find((call) => call.id === result.tool_call_id);
  let output: Record<string, unknown> = {};
  try {
    output = JSON.parse(messageText(result)) as Record<string, unknown>;
  } catch {
    // Not JSON: treated as an output with nothing in it.
  }
  const intent = [...TOOL_INTENTS, KNOWLEDGE_INTENT].find((candidate) => candidate.tool === asked?.function.name);
  if (typeof output.error === 'string') {
    // A business's server failing is told to the model in its terms (HTTP codes, the tool's name):
    // like a model, say it plainly. Invalid arguments are read back (the model was told why).
    if (!intent && /business's system/.test(output.error)) {
      const unknown = /not known whether/.test(output.error);
      return { text: `I'm sorry, I couldn't ${unknown ? 'confirm that' : 'get that done'} right now. Could you try again a little later?` };
    }
    const first = spokenExcerpt(output.error.split(/(?<=\.)\s/)[0]!, SPOKEN_LINE_CHARS).replace(/\.$/, '');
    return { text: `I'm sorry, that didn't work: ${first.charAt(0).toLowerCase()}${first.slice(1)}. Could you try again a little later?` };
  }
  if (!intent) return { text: speakCustomResult(output) };
  const lastWords = [...request.messages].reverse().find((m) => m.role === 'user');
  const spoken = intent.speak(output, intentWords(request, lastWords ? messageText(lastWords).trim() : ''));
  return typeof spoken === 'string' ? { text: spoken } : spoken;
}
