import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ApiError } from '../api/client';
import { placeErrors, type PlacedError } from './field-errors';
import { setAt, type JsonObject } from './form-values';
import type { FormState } from './schema-form';
import type { FieldNode, FieldPath } from './schema-fields';

/** A generated form's state: its value, the 422 placed on its fields, and text that does not parse yet. */
export interface SchemaFormModel {
  value: JsonObject;
  state: FormState;
  /** The problems listed at the top of the form (`ErrorSummary`). */
  summary: PlacedError[];
  /** Before sending: lists the fields whose text does not parse and answers false, else true. */
  check: () => boolean;
  /** After an answer: a 422 at its fields (true), or nothing placed (false: another error, shown apart). */
  showApiError: (error: ApiError) => boolean;
  clearErrors: () => void;
}

/** The state behind `SchemaFields` and `ErrorSummary` for the fields `nodes`, starting at `initial`. */
export function useSchemaForm(nodes: FieldNode[], initial: JsonObject): SchemaFormModel {
  const [value, setValue] = useState(initial);
  const [local, setLocal] = useState(new Map<string, { path: FieldPath; msg: string }>());
  const [placed, setPlaced] = useState(() => placeErrors([], nodes));
  useEffect(() => {
    // After a failed save the summary takes focus, so a keyboard or screen-reader user hears it.
    if (placed.summary.length > 0) document.getElementById('error-summary-title')?.focus();
  }, [placed]);
  const state = useMemo<FormState>(
    () => ({
      value,
      onChange: (path, next) => setValue((current) => setAt(current, path, next)),
      errors: placed.byField,
      onLocalError: (path, message) =>
        setLocal((current) => {
          if (!message && !current.has(path.join('.'))) return current;
          const next = new Map(current);
          if (message) next.set(path.join('.'), { path, msg: message });
          else next.delete(path.join('.'));
          return next;
        }),
    }),
    [value, placed],
  );
  return {
    value,
    state,
    summary: placed.summary,
    check: () => {
      if (local.size === 0) return true;
      setPlaced(
        placeErrors(
          [...local.values()].map(({ path, msg }) => ({ loc: path, msg })),
          nodes,
        ),
      );
      return false;
    },
    showApiError: (error) => {
      if (error.details.length === 0) return false;
      setPlaced(placeErrors(error.details, nodes));
      return true;
    },
    clearErrors: () => setPlaced(placeErrors([], nodes)),
  };
}
