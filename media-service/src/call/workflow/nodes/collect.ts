import { DEFAULT_MAX_TURNS, type NodeOf, type WorkflowField } from '../../../../../shared/domain/workflow';
import { NEXT_STEP_TOOL, stepTool, type NodeBehaviour } from '../node-type';

/** A collected text is kept to this many characters. */
const MAX_VALUE_CHARS = 500;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The JSON Schema of one field's value, as the model gets it. */
function fieldSchema(field: WorkflowField): Record<string, unknown> {
  const description = field.description === '' ? undefined : field.description;
  const base = { ...(description !== undefined && { description }) };
  switch (field.type) {
    case 'number':
      return { ...base, type: 'number' };
    case 'boolean':
      return { ...base, type: 'boolean' };
    case 'date':
      return { ...base, type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
    case 'enum':
      return { ...base, type: 'string', enum: field.options ?? [] };
    case 'string':
      return { ...base, type: 'string' };
  }
}

/** A value the model gave for a field, in the field's type; undefined when it is not one. */
export function fieldValue(field: WorkflowField, raw: unknown): string | number | boolean | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  switch (field.type) {
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.replace(/,/g, '')) : NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string' && /^(yes|true)$/i.test(raw.trim())) return true;
      if (typeof raw === 'string' && /^(no|false)$/i.test(raw.trim())) return false;
      return undefined;
    case 'date':
      return typeof raw === 'string' && ISO_DATE.test(raw) && !Number.isNaN(Date.parse(`${raw}T00:00:00Z`)) ? raw : undefined;
    case 'enum':
      return typeof raw === 'string' ? field.options?.find((option) => option.toLowerCase() === raw.trim().toLowerCase()) : undefined;
    case 'string':
      return typeof raw === 'string' && raw.trim() !== '' ? raw.trim().slice(0, MAX_VALUE_CHARS) : undefined;
  }
}

const label = (field: WorkflowField) =>
  `${field.name} (${field.type === 'enum' ? `one of ${(field.options ?? []).join(', ')}` : field.type})`;

/**
 * `collect`: the model gathers the fields, confirming each with the caller, and hands them over
 * with `next_step {step, values}`; each valid value becomes a variable at once, and the node
 * leaves for `next` once every required field has one.
 */
export const collectNode: NodeBehaviour<NodeOf<'collect'>> = {
  kind: 'talk',
  instructions(node, run) {
    const missing = node.fields.filter((field) => run.variables[field.name] === undefined);
    const lines = [`Workflow step "${node.id}".${node.prompt === '' ? '' : ` ${run.fill(node.prompt)}`}`];
    lines.push('Ask the caller for these, one at a time, and confirm each back to them:');
    lines.push(...missing.map((f) => `- ${label(f)}${f.required ? '' : ' (optional)'}${f.description === '' ? '' : `: ${f.description}`}`));
    lines.push(`Once you have every required one, call ${NEXT_STEP_TOOL} with step "${node.next}" and the values (dates as YYYY-MM-DD).`);
    return lines.join('\n');
  },
  stepTool(node) {
    const values = {
      type: 'object',
      properties: Object.fromEntries(node.fields.map((field) => [field.name, fieldSchema(field)])),
      required: node.fields.filter((field) => field.required).map((field) => field.name),
      additionalProperties: false,
    };
    return stepTool([{ to: node.next, when: 'every required value is collected and confirmed' }], { values }, ['values']);
  },
  accept(node, args, run) {
    const given = args.values !== null && typeof args.values === 'object' ? (args.values as Record<string, unknown>) : {};
    const invalid: string[] = [];
    for (const field of node.fields) {
      if (!Object.hasOwn(given, field.name)) continue;
      const value = fieldValue(field, given[field.name]);
      if (value === undefined) invalid.push(label(field));
      else run.variables[field.name] = value;
    }
    const missing = node.fields.filter((field) => field.required && run.variables[field.name] === undefined).map(label);
    if (invalid.length === 0 && missing.length === 0) return { to: node.next };
    const problems = [
      invalid.length > 0 && `not valid: ${invalid.join(', ')}`,
      missing.length > 0 && `still missing: ${missing.join(', ')}`,
    ];
    return { error: `${problems.filter(Boolean).join('; ')}. Ask the caller, then call ${NEXT_STEP_TOOL} again.` };
  },
  maxTurns: (node) => node.max_turns ?? DEFAULT_MAX_TURNS.collect,
  onStuck: (node) => node.on_stuck ?? null,
};
