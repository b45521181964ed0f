/**
 * Form fields generated from the API's own OpenAPI document, read at run time: a setting added to
 * the API shows up in the console without a console change. Pure (no DOM): the descriptors are
 * unit-tested against the real document (test/unit/console/schema-fields.test.ts), and
 * `schema-form.tsx` renders them.
 */

/** The part of JSON Schema (OpenAPI 3.1) the generator reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  description?: string;
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
}

/** An OpenAPI document, as far as `$ref`s into it go. */
export interface OpenApiDoc {
  components: { schemas: Record<string, JsonSchema> };
}

/** A path into the form's value, as a 422 `loc` names it after `"body"`: `["config", "voice", "speed"]`. */
export type FieldPath = (string | number)[];

interface FieldBase {
  /** The element id: {@link fieldId} of the path. */
  id: string;
  path: FieldPath;
  label: string;
  /** The schema's description, bounds and default in one line; '' for none. */
  hint: string;
  /** `anyOf` with null: an empty input (or an unticked group) sends null, the default. */
  nullable: boolean;
  /** The schema's default, undefined when it has none. */
  initial: unknown;
}

/** One input. `lines` is a list of strings or ids, one a line; `json` is anything the generator has no input for. */
export type LeafField = FieldBase &
  (
    | { kind: 'text' | 'textarea' | 'secret'; maxLength?: number; minLength?: number }
    | { kind: 'number'; integer: boolean; min?: number; max?: number }
    | { kind: 'checkbox' }
    | { kind: 'select'; options: string[] }
    | { kind: 'choices'; options: string[]; maxItems?: number }
    | { kind: 'lines'; integers: boolean; maxItems?: number }
    | { kind: 'json' }
  );

/** A nested object: a fieldset with a legend. */
export interface GroupField extends FieldBase {
  kind: 'group';
  children: FieldNode[];
}

export type FieldNode = LeafField | GroupField;

/** The element id of the field at `path`: `["config", "voice", "speed"]` → `f-config-voice-speed`. */
export function fieldId(path: FieldPath): string {
  return `f-${path.join('-')}`;
}

/** Every field and group id of a generated form, for {@link locToFieldId}. */
export function fieldIds(nodes: FieldNode[]): Set<string> {
  const ids = new Set<string>();
  const walk = (list: FieldNode[]) => {
    for (const node of list) {
      ids.add(node.id);
      if (node.kind === 'group') walk(node.children);
    }
  };
  walk(nodes);
  return ids;
}

/**
 * Where a 422 item belongs: the field its `loc` names (the leading `"body"` dropped), else the
 * nearest enclosing one (an item of a list edited as one field, a member of a JSON field), else
 * undefined (the error summary still lists it).
 */
export function locToFieldId(loc: readonly (string | number)[], ids: ReadonlySet<string>): string | undefined {
  const path = loc[0] === 'body' ? loc.slice(1) : [...loc];
  for (let end = path.length; end > 0; end--) {
    const id = fieldId(path.slice(0, end));
    if (ids.has(id)) return id;
  }
  return undefined;
}

const ACRONYMS: Record<string, string> = { id: 'ID', ids: 'IDs', url: 'URL', ai: 'AI', sms: 'SMS', hipaa: 'HIPAA' };

/** A property name as a label: `max_duration_s` → "Max duration (seconds)", `tool_ids` → "Tool IDs". */
export function labelFor(name: string): string {
  const words = name.split('_').filter((word) => word !== '');
  const unit = { s: '(seconds)', ms: '(ms)' }[words.at(-1) ?? ''];
  if (unit) words.splice(-1, 1, unit);
  const text = words.map((word) => ACRONYMS[word] ?? word).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const MAX_DEPTH = 8;

/** Follows `$ref`s into `#/components/schemas/` (at most {@link MAX_DEPTH}, against a cycle). */
export function resolveSchema(doc: OpenApiDoc, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < MAX_DEPTH; hops++) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`The OpenAPI document has no schema ${name}.`);
    // Siblings of a $ref (a default, a description) apply on top of its target.
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

/** `anyOf: [X, {type: null}]` → X, nullable; anything else as it is. */
function unwrapNullable(doc: OpenApiDoc, schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const resolved = resolveSchema(doc, schema);
  const options = resolved.anyOf;
  if (!options) return { schema: resolved, nullable: false };
  const others = options.filter((option) => option.type !== 'null');
  if (others.length !== 1 || others.length === options.length) return { schema: resolved, nullable: false };
  const { anyOf: _anyOf, ...siblings } = resolved;
  return { schema: { ...resolveSchema(doc, others[0]!), ...siblings }, nullable: true };
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

/** A pattern that refuses line breaks (`\u000A`) means one line: a text input; otherwise a text area. */
function isSingleLine(schema: JsonSchema): boolean {
  return schema.pattern?.includes('\\u000A') ?? false;
}

/** The schema's description, then its bounds, then its default, as one hint line. */
function hintFor(schema: JsonSchema, parts: string[]): string {
  const lines = [schema.description?.trim() ?? '', ...parts];
  const fallback = schema.default;
  if (typeof fallback === 'number') lines.push(`Default ${fallback}.`);
  else if (typeof fallback === 'string' && fallback !== '') lines.push(`Default "${fallback}".`);
  return lines.filter((line) => line !== '').join(' ');
}

function range(schema: JsonSchema): string {
  const { minimum: min, maximum: max } = schema;
  // The integer bounds of ids (1 to 2^53 - 1) say nothing to a person.
  if (max !== undefined && max >= Number.MAX_SAFE_INTEGER) return '';
  if (min !== undefined && max !== undefined) return `${min} to ${max}.`;
  if (min !== undefined) return `At least ${min}.`;
  return max !== undefined ? `At most ${max}.` : '';
}

/** One property as a field; undefined for read-only properties, which a form never sends. */
function describeProperty(doc: OpenApiDoc, name: string, raw: JsonSchema, path: FieldPath): FieldNode | undefined {
  const { schema, nullable } = unwrapNullable(doc, raw);
  if (schema.readOnly) return undefined;
  const base = { id: fieldId(path), path, label: labelFor(name), nullable, initial: schema.default };
  const type = typeOf(schema);
  if (schema.enum && schema.enum.every((value) => typeof value === 'string')) {
    return { ...base, kind: 'select', options: schema.enum as string[], hint: hintFor(schema, []) };
  }
  if (type === 'boolean') return { ...base, kind: 'checkbox', hint: hintFor(schema, []) };
  if (type === 'integer' || type === 'number') {
    const bounds = { min: schema.minimum, max: schema.maximum };
    const empty = nullable ? 'Empty for none.' : '';
    return { ...base, kind: 'number', integer: type === 'integer', ...bounds, hint: hintFor(schema, [range(schema), empty]) };
  }
  if (type === 'string') {
    const kind = schema.writeOnly ? 'secret' : isSingleLine(schema) ? 'text' : 'textarea';
    const limit = schema.maxLength !== undefined ? `At most ${schema.maxLength} characters.` : '';
    const secret = schema.writeOnly ? 'Never shown again once saved; empty keeps the stored one.' : '';
    return { ...base, kind, maxLength: schema.maxLength, minLength: schema.minLength, hint: hintFor(schema, [limit, secret]) };
  }
  if (type === 'array') return describeArray(doc, schema, base);
  if (type === 'object' && schema.properties) {
    const children = describeFields(doc, schema, path);
    return { ...base, kind: 'group', children, hint: hintFor(schema, nullable ? ['Untick for none.'] : []) };
  }
  return { ...base, kind: 'json', hint: hintFor(schema, ['As JSON.']) };
}

function describeArray(doc: OpenApiDoc, schema: JsonSchema, base: Omit<FieldBase, 'hint'>): LeafField {
  const items = schema.items ? resolveSchema(doc, schema.items) : {};
  const itemType = typeOf(items);
  const most = schema.maxItems !== undefined ? `At most ${schema.maxItems}.` : '';
  if (items.enum && items.enum.every((value) => typeof value === 'string')) {
    return { ...base, kind: 'choices', options: items.enum as string[], maxItems: schema.maxItems, hint: hintFor(schema, [most]) };
  }
  if (itemType === 'string' || itemType === 'integer') {
    const each = itemType === 'integer' ? 'One ID per line.' : 'One per line.';
    const empty = base.nullable ? 'Empty for none.' : '';
    return {
      ...base,
      kind: 'lines',
      integers: itemType === 'integer',
      maxItems: schema.maxItems,
      hint: hintFor(schema, [each, most, empty]),
    };
  }
  const members = items.properties ? ` of {${Object.keys(items.properties).join(', ')}}` : '';
  return { ...base, kind: 'json', hint: hintFor(schema, [`As a JSON list${members}.`, most]) };
}

/**
 * The fields of an object schema, in the document's order, at `path` (`only` picks properties by
 * name). Read-only properties are left out.
 *
 * @example
 * describeFields(doc, { $ref: '#/components/schemas/UpdateAssistantBody' }); // name, then the config's fieldset
 */
export function describeFields(doc: OpenApiDoc, schema: JsonSchema, path: FieldPath = [], only?: string[]): FieldNode[] {
  const resolved = unwrapNullable(doc, schema).schema;
  const names = only ?? Object.keys(resolved.properties ?? {});
  const nodes: FieldNode[] = [];
  for (const name of names) {
    const property = resolved.properties?.[name];
    if (!property) continue;
    const node = describeProperty(doc, name, property, [...path, name]);
    if (node) nodes.push(node);
  }
  return nodes;
}
