import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors';
import { isBusinessKey, type TableKey } from './table';

/**
 * What a cursor is bound to: the business, the list (`route`, e.g. `calls` or `knowledge-documents`)
 * and the filters that shape the list. A cursor made under one scope opens under no other.
 */
export interface CursorScope {
  businessId: number;
  route: string;
  /** The list's filters (and parent ids); undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
}

const VERSION = 'c1';
const MAC_BYTES = 32;

/**
 * Opaque list cursors: the DynamoDB key of the last item a page returned, signed with HMAC-SHA256
 * over the key and its {@link CursorScope}. A client cannot forge one, alter one, or carry one to
 * another business, list or filter: each is a 422 at `['query', 'cursor']`. The key is also
 * checked to lie in the caller's partitions before it ever becomes an `ExclusiveStartKey`.
 *
 * @example
 * const cursor = await cursors.seal({ businessId, route: 'calls' }, lastKey);
 * const after = await cursors.open({ businessId, route: 'calls' }, cursor); // the same key
 */
export class PageCursors {
  #key: Promise<Uint8Array> | undefined;

  /** `secret` is read once, on the first cursor (a Secrets Manager value on AWS, derived locally). */
  constructor(private readonly secret: () => Promise<Uint8Array>) {}

  /** The cursor that continues a list after `key`. */
  async seal(scope: CursorScope, key: TableKey): Promise<string> {
    const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
    return `${payload}.${(await this.mac(scope, payload)).toString('base64url')}`;
  }

  /** The key a cursor continues after; a 422 at `['query', 'cursor']` unless this service made it for this scope. */
  async open(scope: CursorScope, cursor: string): Promise<TableKey> {
    const [payload, signature, ...rest] = cursor.split('.');
    const given = Buffer.from(signature ?? '', 'base64url');
    if (payload === undefined || rest.length > 0 || given.length !== MAC_BYTES) throw invalidCursor(cursor);
    if (!timingSafeEqual(given, await this.mac(scope, payload))) throw invalidCursor(cursor);
    const key = parseKey(payload);
    if (!key || !isBusinessKey(scope.businessId, key)) throw invalidCursor(cursor);
    return key;
  }

  private async mac(scope: CursorScope, payload: string): Promise<Buffer> {
    this.#key ??= this.secret();
    const query = Object.entries(scope.query ?? {})
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    const signed = JSON.stringify([VERSION, scope.businessId, scope.route, query, payload]);
    return createHmac('sha256', await this.#key)
      .update(signed)
      .digest();
  }
}

function parseKey(payload: string): TableKey | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return Object.values(value).every((part) => typeof part === 'string') ? (value as TableKey) : undefined;
  } catch {
    return undefined;
  }
}

function invalidCursor(cursor: string): ValidationError {
  return new ValidationError([
    {
      loc: ['query', 'cursor'],
      msg: 'Value error, not a cursor this list gave out: pass `next_cursor` from the previous page unchanged, with the same filters',
      type: 'value_error',
      input: cursor,
      ctx: { error: 'invalid cursor' },
    },
  ]);
}
