import { useEffect, useState } from 'preact/hooks';
import { fromText, toText } from './form-values';
import type { FieldPath, LeafField } from './schema-fields';

/** What every generated input gets from its form. */
export interface FieldProps<F> {
  field: F;
  value: unknown;
  onChange: (path: FieldPath, value: unknown) => void;
  /** A message for the field (the API's 422, or text that does not parse), or undefined. */
  error: string | undefined;
  /** Reports text that does not parse (message) or that parses again (undefined). */
  onLocalError: (path: FieldPath, message: string | undefined) => void;
}

/** The ids an input's `aria-describedby` names: its hint and its error, when there are. */
export function describedBy(id: string, hint: string, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter((part) => part !== '');
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** A field's hint and its error, under the input. */
export function FieldNotes(props: { id: string; hint: string; error: string | undefined }) {
  return (
    <>
      {props.hint && (
        <p id={`${props.id}-hint`} class="hint field-hint">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${props.id}-error`} class="field-error">
          {props.error}
        </p>
      )}
    </>
  );
}

/** A checkbox, its label beside it. */
export function CheckboxField(props: FieldProps<LeafField>) {
  const { field, error } = props;
  return (
    <div class="form-field form-check">
      <input
        id={field.id}
        type="checkbox"
        checked={props.value === true}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(field.id, field.hint, error)}
        onChange={(e) => props.onChange(field.path, e.currentTarget.checked)}
      />
      <label for={field.id}>{field.label}</label>
      <FieldNotes id={field.id} hint={field.hint} error={error} />
    </div>
  );
}

/** Several values of a closed list: one checkbox each, in a fieldset named by the field. */
export function ChoicesField(props: FieldProps<Extract<LeafField, { kind: 'choices' }>>) {
  const { field, error } = props;
  const chosen = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  const toggle = (option: string, on: boolean) =>
    props.onChange(field.path, on ? field.options.filter((o) => o === option || chosen.includes(o)) : chosen.filter((o) => o !== option));
  return (
    <fieldset id={field.id} class="form-field choices" tabIndex={-1} aria-describedby={describedBy(field.id, field.hint, error)}>
      <legend>{field.label}</legend>
      {field.options.map((option) => (
        <div class="form-check" key={option}>
          <input
            id={`${field.id}-${option}`}
            type="checkbox"
            checked={chosen.includes(option)}
            onChange={(e) => toggle(option, e.currentTarget.checked)}
          />
          <label for={`${field.id}-${option}`}>{option}</label>
        </div>
      ))}
      <FieldNotes id={field.id} hint={field.hint} error={error} />
    </fieldset>
  );
}

/** A select, a text input or a text area, a number, a list one a line, or JSON: a label above, notes below. */
export function TextField(props: FieldProps<LeafField>) {
  const { field } = props;
  // Numbers, lists and JSON keep the text as typed ("0.", half a list) and store it once it parses.
  const [draft, setDraft] = useState(() => toText(field, props.value));
  const [local, setLocal] = useState<string>();
  // A field that goes (an optional group unticked) takes its unparsed text with it: it no longer blocks a save.
  useEffect(() => () => props.onLocalError(field.path, undefined), []);
  const error = local ?? props.error;
  const common = {
    id: field.id,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': describedBy(field.id, field.hint, error),
  };
  const typed = (text: string) => {
    setDraft(text);
    const parsed = fromText(field, text);
    const message = parsed.ok ? undefined : parsed.message;
    setLocal(message);
    props.onLocalError(field.path, message);
    if (parsed.ok) props.onChange(field.path, parsed.value);
  };
  return (
    <div class="form-field">
      <label for={field.id}>{field.label}</label>
      {input(
        field,
        common,
        field.kind === 'select' || field.kind === 'text' || field.kind === 'textarea' ? toText(field, props.value) : draft,
        typed,
      )}
      <FieldNotes id={field.id} hint={field.hint} error={error} />
    </div>
  );
}

type Common = { id: string; 'aria-invalid': 'true' | undefined; 'aria-describedby': string | undefined };

function input(field: LeafField, common: Common, text: string, typed: (text: string) => void) {
  const onInput = (e: { currentTarget: { value: string } }) => typed(e.currentTarget.value);
  switch (field.kind) {
    case 'select':
      return (
        <select {...common} value={text} onChange={onInput}>
          {field.nullable && <option value="">(none)</option>}
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    case 'number':
      return (
        <input
          {...common}
          type="number"
          inputMode="decimal"
          min={field.min}
          max={field.max}
          step={field.integer ? 1 : 'any'}
          value={text}
          onInput={onInput}
        />
      );
    case 'secret':
      return <input {...common} type="password" autoComplete="off" maxLength={field.maxLength} value={text} onInput={onInput} />;
    case 'text':
      return <input {...common} type="text" class="wide" maxLength={field.maxLength} value={text} onInput={onInput} />;
    case 'textarea': {
      const rows = (field.maxLength ?? 0) > 5000 ? 12 : 4;
      return <textarea {...common} rows={rows} maxLength={field.maxLength} value={text} onInput={onInput} />;
    }
    case 'json':
      return <textarea {...common} class="code" rows={4} spellcheck={false} value={text} onInput={onInput} />;
    default:
      return <textarea {...common} rows={3} value={text} onInput={onInput} />;
  }
}
