import { ValidationError } from '../errors';

/**
 * An `If-Match` request header (RFC 9110 §13.1.1): `*` (any current version) or a list of entity
 * tags, compared strongly (a weak tag `W/"…"` never matches).
 */
export type IfMatch = { kind: 'any' } | { kind: 'tags'; tags: string[] };

/** One entity tag in a list: optional `W/`, then a quoted string of tag characters. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;

/** The strong entity tag of a stored version: a new version is a new tag (the ETag header). */
export function versionTag(version: number): string {
  return `"${version}"`;
}

/**
 * Parses an `If-Match` header; absent is undefined (no precondition). A malformed list is a 422 at
 * `['header', 'if-match']`, so a typo never turns into an unconditional write.
 */
export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return { kind: 'any' };
  const tags = value.split(',').map((tag) => tag.trim());
  if (value === '' || value.length > 1000 || !tags.every((tag) => ENTITY_TAG.test(tag))) {
    throw new ValidationError([
      {
        loc: ['header', 'if-match'],
        msg: 'Value error, If-Match must be * or a list of entity tags such as "3"',
        type: 'value_error',
        input: value.slice(0, 200),
      },
    ]);
  }
  return { kind: 'tags', tags: tags.filter((tag) => !tag.startsWith('W/')) };
}

/** Whether `ifMatch` lets a request change the resource at `version` (strong comparison). */
export function ifMatchAllows(ifMatch: IfMatch | undefined, version: number): boolean {
  return ifMatch === undefined || ifMatch.kind === 'any' || ifMatch.tags.includes(versionTag(version));
}
