/**
 * A 422's items placed on a generated form: each message at its field, and the summary the form
 * shows on top. Pure (no DOM), unit-tested in test/unit/console/field-errors.test.ts.
 */
import { fieldId, locToFieldId, type FieldNode } from './schema-fields';

/** One item of a 422 body (`HTTPValidationError.detail[]`). */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
}

/** One line of the summary: the field's label (or the loc when no field shows it), the message, the field to go to. */
export interface PlacedError {
  fieldId: string | undefined;
  label: string;
  message: string;
}

/** The labels of every field and group, by id, with their legends before them ("Voice › Speed"). */
function labels(nodes: FieldNode[], prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const node of nodes) {
    const label = prefix ? `${prefix} › ${node.label}` : node.label;
    found.set(node.id, label);
    if (node.kind === 'group') for (const [id, inner] of labels(node.children, label)) found.set(id, inner);
  }
  return found;
}

/**
 * Where each message goes. A message for a place inside a field (the third pronunciation's
 * `word` of a list edited as JSON) says where: "2 › word: …". Several messages for one field
 * are joined.
 */
export function placeErrors(
  items: readonly ValidationItem[],
  nodes: FieldNode[],
): { byField: Map<string, string>; summary: PlacedError[] } {
  const named = labels(nodes);
  const ids = new Set(named.keys());
  const byField = new Map<string, string>();
  const summary: PlacedError[] = [];
  for (const item of items) {
    const path = item.loc[0] === 'body' ? item.loc.slice(1) : item.loc;
    const id = locToFieldId(path, ids);
    const within = id ? path.slice(fieldPathLength(id, path)) : [];
    const message = within.length > 0 ? `${within.join(' › ')}: ${item.msg}` : item.msg;
    if (id) byField.set(id, byField.has(id) ? `${byField.get(id)} ${message}` : message);
    summary.push({ fieldId: id, label: id ? named.get(id)! : path.join(' › ') || 'The request', message });
  }
  return { byField, summary };
}

/** How many steps of `path` the field `id` covers. */
function fieldPathLength(id: string, path: readonly (string | number)[]): number {
  for (let end = path.length; end > 0; end--) if (fieldId(path.slice(0, end)) === id) return end;
  return 0;
}
