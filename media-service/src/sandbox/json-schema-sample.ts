/**
 * Builds a JSON value that validates against a JSON Schema, derived deterministically from a
 * conversation, so the sandbox LLM can answer `response_format: json_schema` requests (the
 * post-call analysis: summary, success evaluation, structured fields of type string, number,
 * boolean, enum and date). Values are looked up in the text by the field's name (an email for
 * `email`, a date for `format: date`, …); when nothing is found a nullable field gets `null`.
 *
 * Covers the subset strict structured outputs allow: `type` (or a type list), `properties`,
 * `required`, `items`, `enum`, `const`, `anyOf`/`oneOf`/`allOf`, local `$ref`, `format`
 * (date, date-time, email), string length and numeric bounds.
 */

type Schema = Record<string, unknown>;

interface Context {
  root: Schema;
  text: string;
  lower: string;
  positive: boolean;
}

const POSITIVE = /\b(thank|thanks|great|perfect|booked|confirmed|yes|wonderful|appreciate|sounds good|resolved)\b/g;
const NEGATIVE = /\b(angry|cancel|complain|frustrated|terrible|upset|unhappy|not happy|useless)\b/g;
const POSITIVE_OPTIONS = new Set(['pass', 'yes', 'true', 'success', 'successful', 'resolved', 'positive', 'good', 'high']);

/** A value for `schema` drawn from `conversation` (the text of the messages being analysed). */
export function sampleJsonSchema(schema: unknown, conversation: string): unknown {
  const root = isSchema(schema) ? schema : {};
  const lower = conversation.toLowerCase();
  const positive = (lower.match(POSITIVE)?.length ?? 0) >= (lower.match(NEGATIVE)?.length ?? 0);
  return sample(root, { root, text: conversation, lower, positive }, 'value', false);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolveRef(schema: Schema, ctx: Context): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#')) return schema;
  let target: unknown = ctx.root;
  for (const part of ref.slice(2).split('/').filter(Boolean)) {
    target = isSchema(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return isSchema(target) ? resolveRef(target, ctx) : {};
}

function sample(raw: Schema, ctx: Context, name: string, nullable: boolean): unknown {
  const schema = resolveRef(raw, ctx);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return pickOption(schema.enum, ctx, nullable);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const options = branches.filter(isSchema).map((b) => resolveRef(b, ctx));
    const concrete = options.filter((b) => b.type !== 'null');
    const allowsNull = nullable || concrete.length < options.length;
    return concrete.length > 0 ? sample(concrete[0]!, ctx, name, allowsNull) : null;
  }
  if (Array.isArray(schema.allOf)) {
    const merged = Object.assign({}, ...schema.allOf.filter(isSchema).map((b) => resolveRef(b, ctx)), { allOf: undefined }) as Schema;
    return sample(merged, ctx, name, nullable);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? (types.includes('null') ? 'null' : inferType(schema));
  return sampleTyped(type, schema, ctx, name, nullable || types.includes('null'));
}

function inferType(schema: Schema): string {
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return 'null';
}

function sampleTyped(type: string, schema: Schema, ctx: Context, name: string, nullable: boolean): unknown {
  switch (type) {
    case 'object':
      return sampleObject(schema, ctx);
    case 'array':
      return sampleArray(schema, ctx, name);
    case 'string':
      return sampleString(schema, ctx, name, nullable);
    case 'number':
    case 'integer':
      return sampleNumber(schema, ctx, name, nullable, type === 'integer');
    case 'boolean':
      return sampleBoolean(ctx, name, nullable);
    default:
      return null;
  }
}

function sampleObject(schema: Schema, ctx: Context): Record<string, unknown> {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(properties)) out[key] = sample(isSchema(child) ? child : {}, ctx, key, false);
  return out;
}

function sampleArray(schema: Schema, ctx: Context, name: string): unknown[] {
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
  const count = Math.min(Math.max(min, 1), max);
  const items = isSchema(schema.items) ? schema.items : {};
  return Array.from({ length: count }, () => sample(items, ctx, name, false));
}

function pickOption(options: unknown[], ctx: Context, nullable: boolean): unknown {
  const strings = options.filter((o): o is string => typeof o === 'string');
  const mentioned = strings.find((o) => o !== '' && ctx.lower.includes(o.toLowerCase().replace(/_/g, ' ')));
  if (mentioned !== undefined) return mentioned;
  const judged = strings.find((o) => POSITIVE_OPTIONS.has(o.toLowerCase()) === ctx.positive);
  if (judged !== undefined && strings.some((o) => POSITIVE_OPTIONS.has(o.toLowerCase()))) return judged;
  if (nullable && options.includes(null)) return null;
  return options.find((o) => o !== null) ?? options[0] ?? null;
}

function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length >= 3 && !['the', 'and', 'was', 'did', 'has', 'for', 'value'].includes(t));
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^\s*(user|assistant|caller|agent|bot)\s*:\s*/i, '').trim())
    .filter((s) => s.split(/\s+/).length >= 3);
}

function mentioning(ctx: Context, name: string): string | undefined {
  const tokens = nameTokens(name);
  return sentences(ctx.text).find((s) => tokens.some((t) => s.toLowerCase().includes(t)));
}

/** The first number in a sentence that mentions the field (dates and times excluded). */
function mentioningNumber(ctx: Context, name: string): string | undefined {
  const tokens = nameTokens(name);
  for (const sentence of sentences(ctx.text)) {
    if (!tokens.some((t) => sentence.toLowerCase().includes(t))) continue;
    const found = /(?<![\d:/-])-?\d+(?:\.\d+)?(?![\d:/-])/.exec(sentence)?.[0];
    if (found !== undefined) return found;
  }
  return undefined;
}

function summary(ctx: Context): string {
  const picked = sentences(ctx.text).slice(0, 2);
  if (picked.length === 0) return 'The call was brief and no request was made.';
  const quoted = picked.map((s) => `"${s}"`).join(' and ');
  return `The conversation covered ${quoted}. The call ended ${ctx.positive ? 'on a positive note' : 'without a clear resolution'}.`;
}

function findDate(text: string): string | undefined {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (iso) return iso[0];
  const us = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(text);
  return us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : undefined;
}

function stringByName(schema: Schema, ctx: Context, name: string): string | undefined {
  const lowerName = name.toLowerCase();
  if (schema.format === 'date') return findDate(ctx.text);
  if (schema.format === 'date-time') return findDate(ctx.text)?.concat('T00:00:00Z');
  if (schema.format === 'email' || lowerName.includes('email')) return /[\w.+-]+@[\w-]+(\.[\w-]+)+/.exec(ctx.text)?.[0];
  if (lowerName.includes('phone')) return /\+?\d[\d\s().-]{6,}\d/.exec(ctx.text)?.[0];
  if (lowerName.includes('summary')) return summary(ctx);
  if (lowerName.includes('name')) return /\bmy name is ([A-Z][a-z]+(?: [A-Z][a-z]+)?)/.exec(ctx.text)?.[1];
  if (/evaluation|rationale|reason|explanation|feedback|success/.test(lowerName)) {
    return ctx.positive
      ? 'The caller got what they asked for and the call ended politely.'
      : 'The caller’s request was not clearly resolved.';
  }
  return mentioning(ctx, name);
}

function sampleString(schema: Schema, ctx: Context, name: string, nullable: boolean): string | null {
  let value = stringByName(schema, ctx, name);
  if (value === undefined) {
    if (nullable) return null;
    value =
      schema.format === 'date'
        ? '2000-01-01'
        : schema.format === 'date-time'
          ? '2000-01-01T00:00:00Z'
          : 'Not mentioned in the conversation.';
  }
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  value = value.slice(0, max);
  return value.length >= min ? value : value.padEnd(min, '.');
}

function bounds(schema: Schema, integer: boolean): { min?: number; max?: number } {
  const step = integer ? 1 : 0.01;
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + step
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - step
        : undefined;
  return { min: integer && min !== undefined ? Math.ceil(min) : min, max: integer && max !== undefined ? Math.floor(max) : max };
}

function sampleNumber(schema: Schema, ctx: Context, name: string, nullable: boolean, integer: boolean): number | null {
  const { min, max } = bounds(schema, integer);
  let value: number | undefined;
  if (/score|rating|success|satisfaction|quality/.test(name.toLowerCase())) {
    const low = min ?? 1;
    const high = max ?? 10;
    value = low + (high - low) * (ctx.positive ? 0.8 : 0.3);
  } else {
    const found = mentioningNumber(ctx, name);
    if (found === undefined && nullable) return null;
    value = found === undefined ? (min ?? 0) : Number(found);
  }
  if (integer) value = Math.round(value);
  if (min !== undefined) value = Math.max(min, value);
  if (max !== undefined) value = Math.min(max, value);
  return value;
}

function sampleBoolean(ctx: Context, name: string, nullable: boolean): boolean | null {
  if (/success|resolved|passed|satisf/.test(name.toLowerCase())) return ctx.positive;
  if (mentioning(ctx, name) !== undefined) return true;
  return nullable ? null : false;
}
