import { messageText, type ChatRequest, type ChatRequestMessage } from './openai-wire';
import type { SandboxLlmReply } from './sandbox-llm-script';
import { spokenDate, todayFromPrompt } from './spoken-dates';

/**
 * The sandbox model inside a workflow (docs/design.md "Workflows"): it reads the step from the request as a
 * real model would (the step's instructions, and the `next_step` tool's enum and conditions) and
 * walks it from the caller's words, deterministically:
 *
 * - conversation: it leaves by the first edge whose `when` shares a word (five letters or more, or
 *   its first five) with the caller's last words, else by an edge saying "otherwise" / "anything
 *   else"; with none it answers as the receptionist does (undefined here). Entering the step it
 *   says the first quoted sentence of the step's prompt, else "Go ahead, I'm listening."
 * - collect: it asks for one field at a time ("Could I have your full name?"), takes each from the
 *   caller's answer to it (or, when its last line named no field, to the first one missing) (enum: an option named; number: the first number; date: ISO, "March 4 1990" or
 *   a day the booking tools understand; yes/no; text: the answer, without "my name is …"-style
 *   lead-ins, unless it dodges: "rather not", "don't know", "skip"), repeats what it got, and calls
 *   `next_step` with the values once every required one is there.
 */
export function workflowReply(request: ChatRequest): SandboxLlmReply | undefined {
  const tool = request.tools?.find((t) => t.function.name === 'next_step');
  if (!tool) return undefined;
  const params = (tool.function.parameters ?? {}) as { properties?: Record<string, Schema> };
  const step = params.properties?.step;
  const targets = step?.enum ?? [];
  if (targets.length === 0) return undefined;
  const last = request.messages.at(-1);
  if (last?.role === 'tool' && !isStepResult(request, last)) return undefined;
  const turns = turnsInStep(request);
  const values = params.properties?.values;
  if (values) return collectReply(values, targets[0]!, turns, todayFromPrompt(systemText(request)) ?? '2026-01-01');
  if (turns.length === 0) return { text: openingLine(request) };
  const edges = [...(step?.description ?? '').matchAll(/^- ([a-z][a-z0-9_]*): (.+)$/gm)].map((m) => ({ to: m[1]!, when: m[2]! }));
  const said = turns.at(-1)!.said;
  const edge = edges.find((e) => sharesWord(e.when, said)) ?? edges.find((e) => /\b(otherwise|anything else)\b/i.test(e.when));
  return edge ? { toolCalls: [{ name: 'next_step', arguments: JSON.stringify({ step: edge.to }) }] } : undefined;
}

interface Schema {
  type?: string;
  enum?: string[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}

/** A tool message answering a `next_step` that moved the call (`{"ok":true}`): a step starts after it. */
function isStepResult(request: ChatRequest, message: ChatRequestMessage): boolean {
  const calledBy = request.messages.find((m) => m.tool_calls?.some((call) => call.id === message.tool_call_id));
  const call = calledBy?.tool_calls?.find((c) => c.id === message.tool_call_id);
  return call?.function.name === 'next_step' && messageText(message).includes('"ok":true');
}

/** One thing the caller said, and what the assistant had said just before it. */
interface Turn {
  said: string;
  after: string;
}

/** What the caller said since the current step began. */
function turnsInStep(request: ChatRequest): Turn[] {
  let from = 0;
  request.messages.forEach((message, index) => {
    if (message.role === 'tool' && isStepResult(request, message)) from = index + 1;
  });
  const turns: Turn[] = [];
  let after = '';
  request.messages.forEach((message, index) => {
    if (message.role === 'assistant' && messageText(message) !== '') after = messageText(message);
    if (message.role === 'user' && index >= from) turns.push({ said: messageText(message).trim(), after });
  });
  return turns;
}

function systemText(request: ChatRequest): string {
  return request.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map(messageText)
    .join('\n');
}

/**
 * The first quoted sentence of the step's prompt: the step's first line, a system message of its own
 * (standard mode) or the tail of the live session's instructions (live mode).
 */
function openingLine(request: ChatRequest): string {
  const prompt = /^Workflow step "[^"]*"\.[ \t]*(.*)$/m.exec(systemText(request))?.[1] ?? '';
  return /"([^"]+)"/.exec(prompt)?.[1] ?? "Go ahead, I'm listening.";
}

const STOPWORDS = new Set(['caller', 'callers', 'about', 'their', 'there', 'which', 'would', 'wants', 'says', 'should', 'others', 'other']);

/** Whether the condition and the caller's words share a word (five letters or more, or its first five). */
function sharesWord(when: string, said: string): boolean {
  const words = (text: string) => text.toLowerCase().match(/[a-z\u00c0-\u024f]{5,}/g) ?? [];
  const heard = new Set(words(said).map((w) => w.slice(0, 5)));
  return words(when).some((w) => !STOPWORDS.has(w) && heard.has(w.slice(0, 5)));
}

const DODGE = /\b(rather not|don'?t want|not telling|won'?t say|skip|no idea|don'?t know|none of your|not sure|pass)\b/i;
const LEAD_IN =
  /^(?:(?:well|um|uh|sure|yes|yeah|ok(?:ay)?|so)[,.]?\s+)*(?:(?:my|the|our)\s+[\w\s]{1,30}?\s+(?:is|was|are)|it'?s|it is|i'?m|i am|this is|call me)\s+/i;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

const words = (name: string) => name.replace(/_/g, ' ');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function absoluteDate(said: string): string | undefined {
  const iso = /\b(\d{4}-\d{2}-\d{2})\b/.exec(said)?.[1];
  if (iso) return iso;
  const monthFirst = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i').exec(said);
  const dayFirst = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTHS.join('|')}),?\\s+(\\d{4})\\b`, 'i').exec(said);
  const [month, day, year] = monthFirst
    ? [monthFirst[1]!, monthFirst[2]!, monthFirst[3]!]
    : dayFirst
      ? [dayFirst[2]!, dayFirst[1]!, dayFirst[3]!]
      : [];
  if (!month) return undefined;
  return `${year}-${String(MONTHS.indexOf(month.toLowerCase()) + 1).padStart(2, '0')}-${day!.padStart(2, '0')}`;
}

/** A field's value in the caller's words: when it is the one asked for (`asked`), the whole answer is read. */
function extract(name: string, schema: Schema, turn: Turn, asked: boolean, today: string): unknown {
  const said = turn.said;
  if (schema.enum) return schema.enum.find((option) => new RegExp(`\\b${escape(option)}\\b`, 'i').test(said));
  const alias = `(?:${escape(words(name))}|${escape(name.split('_').at(-1)!)})`;
  const named = new RegExp(`\\b${alias}\\s+(?:is|was)\\s+([^.,!?]+)`, 'i').exec(said)?.[1];
  if (!asked && named === undefined) return undefined;
  const text = named ?? said;
  if (DODGE.test(text)) return undefined;
  if (schema.format === 'date') return absoluteDate(text) ?? spokenDate(text, today);
  if (schema.type === 'number') {
    const digits = /-?\d+(?:\.\d+)?/.exec(text.replace(/,/g, ''))?.[0];
    if (digits !== undefined) return Number(digits);
    const word = NUMBER_WORDS.findIndex((w) => new RegExp(`\\b${w}\\b`, 'i').test(text));
    return word >= 0 ? word : undefined;
  }
  if (schema.type === 'boolean') {
    if (/\b(yes|yeah|yep|correct|i do|i am|sure)\b/i.test(text)) return true;
    if (/\b(no|nope|not|never|don'?t)\b/i.test(text)) return false;
    return undefined;
  }
  const value = text
    .replace(LEAD_IN, '')
    .replace(/[.!?\s]+$/, '')
    .trim();
  return value === '' ? undefined : value.slice(0, 200);
}

function collectReply(values: Schema, step: string, turns: Turn[], today: string): SandboxLlmReply {
  const fields = Object.entries(values.properties ?? {});
  const required = new Set(values.required ?? []);
  const got: Record<string, unknown> = {};
  let fresh: string[] = [];
  for (const turn of turns) {
    fresh = [];
    // The field the assistant's last line named, else the first one still missing (the question may have been cut short).
    const heard = turn.after.toLowerCase();
    const asked =
      fields.find(([name]) => got[name] === undefined && heard.includes(words(name)))?.[0] ??
      (fields.some(([name]) => heard.includes(words(name))) ? undefined : fields.find(([name]) => got[name] === undefined)?.[0]);
    for (const [name, schema] of fields) {
      if (got[name] !== undefined) continue;
      const value = extract(name, schema, turn, name === asked, today);
      if (value !== undefined) {
        got[name] = value;
        fresh.push(name);
      }
    }
  }
  const confirm = fresh.length > 0 ? `Got it: ${fresh.map((name) => `${words(name)} ${String(got[name])}`).join(', ')}. ` : '';
  const missing = fields.filter(([name]) => got[name] === undefined && required.has(name));
  if (missing.length === 0 && (turns.length > 0 || required.size === 0)) {
    return { text: `${confirm}Thank you.`, toolCalls: [{ name: 'next_step', arguments: JSON.stringify({ step, values: got }) }] };
  }
  const next = words((missing[0] ?? fields.find(([name]) => got[name] === undefined) ?? fields[0]!)[0]);
  if (turns.length > 0 && fresh.length === 0) return { text: `Sorry, I still need your ${next}. Could you tell me?` };
  return { text: `${confirm}Could I have your ${next}?` };
}
