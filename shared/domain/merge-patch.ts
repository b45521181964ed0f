/**
 * RFC 7396 JSON Merge Patch, applied to a parsed JSON document: an object patch merges into the
 * target member by member (recursively), `null` removes a member, and anything else (a string, a
 * number, an array) replaces the target outright. Members are defined, never assigned, so a
 * `"__proto__"` key in a patch is an ordinary member (which the schema then refuses).
 *
 * @example
 * applyMergePatch({ a: { b: 1, c: 2 }, d: [1] }, { a: { b: null }, d: [2] }); // → { a: { c: 2 }, d: [2] }
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const merged = new Map<string, unknown>(isObject(target) ? Object.entries(target) : []);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) merged.delete(name);
    else merged.set(name, applyMergePatch(merged.get(name), value));
  }
  return Object.fromEntries(merged);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
