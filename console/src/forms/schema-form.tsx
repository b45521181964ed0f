import { CheckboxField, ChoicesField, describedBy, FieldNotes, TextField, type FieldProps } from './field-input';
import type { PlacedError } from './field-errors';
import { getAt } from './form-values';
import type { FieldNode, FieldPath, GroupField } from './schema-fields';

/** The form's value and what it does with a change; passed down the groups unchanged. */
export interface FormState {
  value: unknown;
  onChange: (path: FieldPath, value: unknown) => void;
  /** The API's 422 messages by field id. */
  errors: ReadonlyMap<string, string>;
  onLocalError: (path: FieldPath, message: string | undefined) => void;
}

/** The fields generated from a schema (`describeFields`), each bound to its place in the value. */
export function SchemaFields(props: { nodes: FieldNode[]; state: FormState }) {
  return (
    <>
      {props.nodes.map((node) => (
        <FieldFor key={node.id} node={node} state={props.state} />
      ))}
    </>
  );
}

function FieldFor(props: { node: FieldNode; state: FormState }) {
  const { node, state } = props;
  if (node.kind === 'group') return <Group group={node} state={state} />;
  const common: FieldProps<typeof node> = {
    field: node,
    value: getAt(state.value, node.path),
    onChange: state.onChange,
    error: state.errors.get(node.id),
    onLocalError: state.onLocalError,
  };
  if (node.kind === 'checkbox') return <CheckboxField {...common} />;
  if (node.kind === 'choices') return <ChoicesField {...common} field={node} />;
  return <TextField {...common} />;
}

/**
 * A nested object as a fieldset. A nullable one (the plain-language setup, a fallback model)
 * starts with a checkbox: unticked sends null, ticked shows its fields (empty ones take their defaults).
 */
function Group(props: { group: GroupField; state: FormState }) {
  const { group, state } = props;
  const value = getAt(state.value, group.path);
  const error = state.errors.get(group.id);
  const open = !group.nullable || (value !== null && value !== undefined);
  const toggleId = `${group.id}-set`;
  return (
    <fieldset
      id={group.id}
      class="form-group"
      tabIndex={-1}
      aria-invalid={error ? 'true' : undefined}
      aria-describedby={describedBy(group.id, group.hint, error)}
    >
      <legend>{group.label}</legend>
      {group.nullable && (
        <div class="form-check">
          <input
            id={toggleId}
            type="checkbox"
            checked={open}
            onChange={(e) => state.onChange(group.path, e.currentTarget.checked ? {} : null)}
          />
          <label for={toggleId}>Use {group.label.toLowerCase()}</label>
        </div>
      )}
      <FieldNotes id={group.id} hint={group.hint} error={error} />
      {open && <SchemaFields nodes={group.children} state={state} />}
    </fieldset>
  );
}

/**
 * Every problem at the top of the form, each a link to its field, announced at once. The
 * heading takes focus so a keyboard user lands on the list after a failed save.
 */
export function ErrorSummary(props: { items: PlacedError[] }) {
  if (props.items.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" tabIndex={-1}>
        {props.items.length === 1 ? 'One field needs attention' : `${props.items.length} fields need attention`}
      </h2>
      <ul>
        {props.items.map((item, index) => (
          <li key={index}>
            {item.fieldId ? (
              <a href={`#${item.fieldId}`} onClick={(e) => focusField(e, item.fieldId!)}>
                {item.label}: {item.message}
              </a>
            ) : (
              `${item.label}: ${item.message}`
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Follows a summary link without changing the URL (the router would treat it as a new page). */
function focusField(event: Event, id: string) {
  event.preventDefault();
  const target = document.getElementById(id);
  target?.scrollIntoView({ block: 'center' });
  target?.focus();
}
