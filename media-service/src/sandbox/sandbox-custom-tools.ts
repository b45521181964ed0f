import { RE2JS } from 're2js';
import { RESERVED_TOOL_NAMES } from '../../../shared/domain/tool';
import { sampleJsonSchema } from './json-schema-sample';
import { messageText, type ChatRequest } from './openai-wire';
import type { SandboxLlmReply } from './sandbox-llm-script';

/**
 * How the sandbox model calls a business's custom tools (any offered tool whose name is not a
 * built-in's), deterministically, so `admin call-in --scenario tool` and tests predict every word:
 *
 * - **When**: the caller's latest words name the tool, its name's `_` and `-` read as spaces
 *   ("lookup order" calls `lookup_order`), or contain three or more distinct words of four or
 *   more letters from its description. The first offered tool that matches is called.
 * - **Arguments**: a value per property, sampled from the schema over what the caller said
 *   (json-schema-sample.ts); a string property with a `pattern` takes the first word the caller
 *   said that matches it (RE2, as the platform checks it); an optional string the caller never
 *   mentioned is left out. The platform then checks them against the schema like any model's.
 * - **Result**: spoken back as the business's server gave it: a `result`, `message`, `say` or
 *   `text` string as it is, else the first five plain fields of the JSON object ("status: shipped").
 */

const BUILT_IN = new Set<string>(RESERVED_TOOL_NAMES);
const NOT_MENTIONED = 'Not mentioned in the conversation.';
const STOP_WORDS = new Set(['that', 'this', 'with', 'from', 'your', 'have', 'what', 'when', 'where', 'which', 'will', 'about', 'their']);

type Tool = NonNullable<ChatRequest['tools']>[number]['function'];
type Schema = Record<string, unknown>;

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function descriptionWords(description: string): Set<string> {
  return new Set(words(description).filter((word) => word.length >= 4 && !STOP_WORDS.has(word)));
}

/** Whether the caller's words ask for `tool` (the rule above). */
export function asksForCustomTool(tool: Tool, said: string): boolean {
  const spoken = ` ${words(said).join(' ')} `;
  if (spoken.includes(` ${words(tool.name.replace(/[_-]+/g, ' ')).join(' ')} `)) return true;
  const saidWords = new Set(words(said));
  let shared = 0;
  for (const word of descriptionWords(tool.description ?? '')) if (saidWords.has(word)) shared++;
  return shared >= 3;
}

/** The first word the caller said (latest words first) that the pattern matches. */
function matchingWord(pattern: string, said: string, callerWords: string): string | undefined {
  let regex;
  try {
    regex = RE2JS.compile(pattern);
  } catch {
    return undefined;
  }
  const candidates = `${said} ${callerWords}`.split(/\s+/).map((word) => word.replace(/^[^\w+]+|[^\w]+$/g, ''));
  return candidates.find((word) => word !== '' && regex.test(word));
}

/** The arguments for `tool` from the caller's words (the rule above). */
export function customToolArguments(tool: Tool, said: string, callerWords: string): Record<string, unknown> {
  const schema = (tool.parameters ?? { type: 'object' }) as Schema;
  const sampled = sampleJsonSchema(schema, `${said}\n${callerWords}`) as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    let value = sampled?.[name];
    if (typeof property.pattern === 'string') value = matchingWord(property.pattern, said, callerWords) ?? value;
    if (!required.has(name) && (value === NOT_MENTIONED || value === null || value === undefined)) continue;
    args[name] = value;
  }
  return args;
}

const offeredCustom = (request: ChatRequest): Tool[] =>
  (request.tools ?? []).map((tool) => tool.function).filter((tool) => !BUILT_IN.has(tool.name));

/** The custom tool call the caller's latest words ask for, if any offered tool matches. */
export function customToolReply(request: ChatRequest, said: string, callerWords: string): SandboxLlmReply | undefined {
  const tool = offeredCustom(request).find((candidate) => asksForCustomTool(candidate, said));
  if (!tool) return undefined;
  const args = customToolArguments(tool, said, callerWords);
  return { text: 'Let me check that for you.', toolCalls: [{ name: tool.name, arguments: JSON.stringify(args) }] };
}

/**
 * The call's first offered custom tool, called whatever the caller said, with arguments drawn from
 * their words (a fault number's `tool-hang`, `provider-faults.ts`); undefined when none is offered.
 */
export function firstCustomToolCall(request: ChatRequest): SandboxLlmReply | undefined {
  const tool = offeredCustom(request)[0];
  if (!tool) return undefined;
  const callerWords = request.messages
    .filter((message) => message.role === 'user')
    .map(messageText)
    .join(' ');
  const args = customToolArguments(tool, callerWords, callerWords);
  return { text: 'Let me check that for you.', toolCalls: [{ name: tool.name, arguments: JSON.stringify(args) }] };
}

const SPOKEN_KEYS = ['result', 'message', 'say', 'text'];
/** The most of a tool's line the sandbox model says, as a model on a phone keeps a turn short. */
export const SPOKEN_LINE_CHARS = 300;
/** The most of one field's value it says. */
const SPOKEN_FIELD_CHARS = 80;

/**
 * The start of `text` fit to be spoken in one turn: whole sentences up to `max` characters, or
 * the first sentence cut at a word with "…" when even that is longer. A tool that answers with a
 * 4,000-character page would otherwise be read out in full (three minutes of one turn).
 */
export function spokenExcerpt(text: string, max: number): string {
  // Control characters (a NUL in a reply) are not said; runs of space are one.
  const trimmed = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
  if (trimmed.length <= max) return trimmed;
  const sentences = trimmed.match(/.*?[.!?]+(?=\s|$)\s*|.+$/g) ?? [trimmed];
  let kept = '';
  for (const sentence of sentences) {
    if ((kept + sentence).trimEnd().length > max) break;
    kept += sentence;
  }
  if (kept !== '') return kept.trimEnd();
  // Never half of a surrogate pair (an emoji).
  const cut = trimmed.slice(0, /[\uD800-\uDBFF]/.test(trimmed[max - 1] ?? '') ? max - 1 : max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** What the sandbox model says with a custom tool's successful output (bounded, like a model's turn). */
export function speakCustomResult(output: Record<string, unknown>): string {
  const line = SPOKEN_KEYS.map((key) => output[key]).find((value): value is string => typeof value === 'string' && value.trim() !== '');
  if (line !== undefined) return `${spokenExcerpt(line, SPOKEN_LINE_CHARS)} Is there anything else I can help you with?`;
  const fields = Object.entries(output)
    .filter(([, value]) => ['number', 'boolean'].includes(typeof value) || (typeof value === 'string' && value.trim() !== ''))
    .slice(0, 5)
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${spokenExcerpt(String(value), SPOKEN_FIELD_CHARS)}`);
  if (fields.length === 0) return 'All done. Is there anything else I can help you with?';
  return `Here is what I found. ${fields.join('; ')}. Is there anything else I can help you with?`;
}
