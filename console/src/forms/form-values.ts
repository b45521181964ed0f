/**
 * A generated form's value: reading and writing at a field's path, the text an input shows, and
 * the merge patch of what changed. Pure (no DOM), unit-tested in test/unit/console/form-values.test.ts.
 */
import type { FieldNode, FieldPath, LeafField } from './schema-fields';

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value at `path`, or undefined when a step is missing. */
export function getAt(value: unknown, path: FieldPath): unknown {
  let current = value;
  for (const step of path) {
    if (!isObject(current) && !Array.isArray(current)) return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** A copy of `value` with `next` at `path` (undefined removes the member); objects on the way are made as needed. */
export function setAt(value: JsonObject, path: FieldPath, next: unknown): JsonObject {
  const [step, ...rest] = path;
  if (step === undefined) return value;
  const copy: JsonObject = { ...value };
  const key = String(step);
  const member = rest.length === 0 ? next : setAt(isObject(copy[key]) ? (copy[key] as JsonObject) : {}, rest, next);
  if (member === undefined) delete copy[key];
  else copy[key] = member;
  return copy;
}

/** The text an input shows for a value. */
export function toText(field: LeafField, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.kind === 'lines') return Array.isArray(value) ? value.join('\n') : '';
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

/** What an input's text means: the value to store, or a message for the person. */
export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * The value an input's text stands for. An empty number or list is null when the field is
 * nullable (or, for a number, the setting's default: a merge patch's null restores it); an empty
 * secret is undefined (nothing sent: the stored key stays). Ids that are not whole numbers are
 * kept as typed, so the API's 422 points at the line.
 */
export function fromText(field: LeafField, text: string): Parsed {
  const trimmed = text.trim();
  switch (field.kind) {
    case 'number': {
      if (trimmed === '') return { ok: true, value: null };
      const number = Number(trimmed);
      if (!Number.isFinite(number)) return { ok: false, message: 'Enter a number.' };
      if (field.integer && !Number.isInteger(number)) return { ok: false, message: 'Enter a whole number.' };
      return { ok: true, value: number };
    }
    case 'lines': {
      const items = text
        .split(/\r\n|\r|\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '');
      if (items.length === 0 && field.nullable) return { ok: true, value: null };
      const values = field.integers ? items.map((item) => (/^\d{1,16}$/.test(item) ? Number(item) : item)) : items;
      return { ok: true, value: values };
    }
    case 'json': {
      if (trimmed === '') return { ok: true, value: null };
      try {
        return { ok: true, value: JSON.parse(trimmed) as unknown };
      } catch {
        return { ok: false, message: 'This is not valid JSON.' };
      }
    }
    case 'secret':
      return { ok: true, value: text === '' ? undefined : text };
    case 'select':
      return { ok: true, value: text === '' && field.nullable ? null : text };
    default:
      return { ok: true, value: text };
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The RFC 7396 merge patch from `before` to `after`: changed members only, objects recursively,
 * a removed member as null (the API then restores the setting's default), arrays whole.
 * Undefined when nothing changed.
 *
 * @example
 * mergePatch({ a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 5, d: 3 } }); // → { b: { c: 5 } }
 */
export function mergePatch(before: unknown, after: unknown): unknown {
  if (sameJson(before, after)) return undefined;
  if (!isObject(before) || !isObject(after)) return after === undefined ? null : after;
  const patch: JsonObject = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!(key in after)) {
      patch[key] = null;
      continue;
    }
    const member = mergePatch(before[key], after[key]);
    if (member !== undefined) patch[key] = member;
  }
  return patch;
}

/** A new form's value: every field at its schema default (a select shows what the API would pick). */
export function defaultValue(nodes: FieldNode[], value: JsonObject = {}): JsonObject {
  let next = value;
  for (const node of nodes) {
    if (node.kind === 'group') next = defaultValue(node.children, next);
    else if (node.initial !== undefined) next = setAt(next, node.path, node.initial);
  }
  return next;
}
