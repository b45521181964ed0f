import type { NodeOf, WorkflowCase } from '../../../../../shared/domain/workflow';
import type { NodeBehaviour } from '../node-type';

/** `branch`: the first case that holds, else `default`; no model involved. */
export const branchNode: NodeBehaviour<NodeOf<'branch'>> = {
  kind: 'act',
  act(node, run) {
    const hit = node.cases.find((c) => holds(c.when, run.value(c.when.var)));
    return { next: hit?.to ?? node.default };
  },
};

const numeric = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
};

const same = (a: unknown, b: unknown): boolean => {
  const [x, y] = [numeric(a), numeric(b)];
  if (x !== undefined && y !== undefined) return x === y;
  return String(a).trim().toLowerCase() === String(b).trim().toLowerCase();
};

/** Compares numbers as numbers, anything else (ISO dates too) as text. */
const compare = (a: unknown, b: unknown): number => {
  const [x, y] = [numeric(a), numeric(b)];
  if (x !== undefined && y !== undefined) return x - y;
  return String(a).localeCompare(String(b));
};

/** Whether a case's condition holds for the variable's value (undefined: not collected). */
export function holds(when: WorkflowCase['when'], value: unknown): boolean {
  const present = value !== undefined && value !== null && value !== '';
  if (when.op === 'exists') return present;
  if (!present) return when.op === 'ne';
  switch (when.op) {
    case 'eq':
      return same(value, when.value);
    case 'ne':
      return !same(value, when.value);
    case 'gt':
      return compare(value, when.value) > 0;
    case 'lt':
      return compare(value, when.value) < 0;
    case 'in':
      return (Array.isArray(when.value) ? when.value : [when.value]).some((option) => same(value, option));
  }
}
