/**
 * Free-form JSON (a model's tool arguments, a business's tool reply, a JSON Schema) meets two
 * limits on its way into DynamoDB that JSON itself does not have:
 * - numbers: the document client refuses those past ±2^53 (it would lose precision), and DynamoDB
 *   refuses magnitudes under 1e-130 ("Number underflow") or over ~1e126;
 * - map keys: DynamoDB refuses an empty one ("Empty attribute name").
 * Either failure would make the whole write fail: a call's record, or a tool, lost for one value.
 */

/** The smallest magnitude DynamoDB stores, other than 0. */
export const MIN_STORABLE_MAGNITUDE = 1e-130;

/**
 * Whether DynamoDB, through the document client, stores this number as it is. Its 38 significant
 * digits and 1e126 ceiling never bind past the ±2^53 bound: a JS number has at most 17 digits.
 */
export function isStorableNumber(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER && (value === 0 || Math.abs(value) >= MIN_STORABLE_MAGNITUDE);
}

/** What keeps a JSON value from being stored as it is (a number or an empty key, with where), or null. */
export function unstorableJsonProblem(value: unknown, path = ''): string | null {
  if (typeof value === 'number')
    return isStorableNumber(value)
      ? null
      : `${path || 'the value'}: ${value} is outside the numbers that can be stored (±2^53, and none nearer 0 than 1e-130)`;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const problem = unstorableJsonProblem(item, `${path}/${index}`);
      if (problem !== null) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key === '') return `${path || 'the value'}: an empty property name cannot be stored`;
    const problem = unstorableJsonProblem(item, `${path}/${key}`);
    if (problem !== null) return problem;
  }
  return null;
}

/** The key an empty one is kept under. */
export const EMPTY_KEY = '(empty)';

/**
 * A copy of a JSON value that can be stored: an unstorable number becomes its JSON text
 * ("1e+300"), an empty key {@link EMPTY_KEY}. For what a call records: better a number kept as
 * text than the call's record lost.
 */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'number') return isStorableNumber(value) ? value : String(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(storableJson);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key === '' ? EMPTY_KEY : key] = storableJson(item);
  return out;
}
