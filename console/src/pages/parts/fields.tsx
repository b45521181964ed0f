import { words } from './format';

/** A labelled select of an enum's values, with "Any" first: the filter forms' one control. */
export function EnumSelect<T extends string>(props: {
  id: string;
  label: string;
  value: '' | T;
  options: readonly T[];
  /** Words for values that read badly as they are (`true` → "Urgent only"). */
  labels?: Partial<Record<T, string>>;
  onChange: (value: '' | T) => void;
}) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value as '' | T)}>
        <option value="">Any</option>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {props.labels?.[option] ?? words(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A labelled date field (`YYYY-MM-DD`). */
export function DateField(props: { id: string; label: string; value: string; onChange: (value: string) => void }) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <input id={props.id} type="date" value={props.value} onInput={(e) => props.onChange(e.currentTarget.value)} />
    </div>
  );
}
