import type { components } from '../../api/schema';

type Parameters = components['schemas']['Tool']['parameters'];

/** One argument a custom tool takes, read from its JSON Schema for the tools page. */
export interface ParameterRow {
  /** Dotted path for nested object properties (`address.city`); `[]` marks array items (`items[].sku`). */
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** The constraints worth showing: enum, pattern, format, bounds. */
  rules: string[];
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

function typeOf(schema: Node): string {
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' or ');
  if (typeof type === 'string') return type;
  if (Array.isArray(schema.enum)) return 'enum';
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) return 'one of several';
  return 'any';
}

function rulesOf(schema: Node): string[] {
  const rules: string[] = [];
  if (Array.isArray(schema.enum)) rules.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  if ('const' in schema) rules.push(`exactly ${JSON.stringify(schema.const)}`);
  for (const key of ['pattern', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (schema[key] !== undefined) rules.push(`${key} ${typeof schema[key] === 'string' ? schema[key] : JSON.stringify(schema[key])}`);
  }
  return rules;
}

function walk(schema: Node, prefix: string, rows: ParameterRow[], depth: number): void {
  const properties = isNode(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  for (const [key, value] of Object.entries(properties)) {
    if (!isNode(value)) continue;
    const name = `${prefix}${key}`;
    rows.push({
      name,
      type: typeOf(value),
      required: required.has(key),
      description: typeof value.description === 'string' ? value.description : '',
      rules: rulesOf(value),
    });
    // Deep schemas are rare in tools; 4 levels keeps a hostile one from drawing a huge table.
    if (depth >= 4) continue;
    if (value.type === 'object') walk(value, `${name}.`, rows, depth + 1);
    if (value.type === 'array' && isNode(value.items) && value.items.type === 'object') walk(value.items, `${name}[].`, rows, depth + 1);
  }
}

/** The arguments a tool's `parameters` schema describes, top level first, nested ones under their parent. */
export function parameterRows(parameters: Parameters): ParameterRow[] {
  const rows: ParameterRow[] = [];
  walk(parameters, '', rows, 0);
  return rows;
}
