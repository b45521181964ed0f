import * as v from 'valibot';
import { ValidationError } from '../errors';
import { withRawInput } from './paging';
import { idField } from './validation';
import { issuesToItems, parseIntString, type Loc } from './validation-errors';

/** An id in a path: a positive integer (`int_parsing`, then `greater_than_equal` ge 1). */
export const IdParamSchema = idField();

/** An id as it appears in a path: canonical decimal, so one id has exactly one URL. */
const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

/**
 * Parses a path id such as `assistant_id`; a 422 item at `['path', name]` otherwise. Only the
 * canonical decimal form is an id: ` 2`, `+2` and `02` are refused (`int_parsing`), not read as 2.
 */
export function parseIdParam(value: string, name: string): number {
  const loc: Loc = ['path', name];
  const parsed = parseIntString(value, loc);
  if (typeof parsed === 'number' && parsed >= 1 && !CANONICAL_ID.test(value)) {
    throw new ValidationError([
      { loc, msg: 'Input should be a valid id: digits only, without sign, spaces or leading zeros', type: 'int_parsing', input: value },
    ]);
  }
  if (typeof parsed === 'object') throw new ValidationError([parsed]);
  const result = v.safeParse(IdParamSchema, parsed, { abortPipeEarly: true });
  if (!result.success) throw new ValidationError(withRawInput(issuesToItems(result.issues, loc), () => value));
  return result.output;
}
