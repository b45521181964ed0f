import { useEffect, useState } from 'preact/hooks';
import { CHANNELS, DIRECTIONS, filtersProblem, NO_FILTERS, OUTCOMES, STATUSES, type CallFilters } from '../parts/calls-query';
import { DateField, EnumSelect } from '../parts/fields';

/** The calls list's filter form: nothing is sent until "Apply filters", so typing a date does not reload the list. */
export function CallFiltersForm(props: { value: CallFilters; onApply: (filters: CallFilters) => void }) {
  const [draft, setDraft] = useState(props.value);
  const [problem, setProblem] = useState<string>();
  useEffect(() => setDraft(props.value), [props.value]);
  const set =
    <K extends keyof CallFilters>(key: K) =>
    (value: CallFilters[K]) =>
      setDraft((d) => ({ ...d, [key]: value }));
  const submit = (event: Event) => {
    event.preventDefault();
    const found = filtersProblem(draft);
    setProblem(found);
    if (!found) props.onApply(draft);
  };
  return (
    <form class="filters" onSubmit={submit} aria-label="Filter calls">
      <EnumSelect id="f-direction" label="Direction" value={draft.direction} options={DIRECTIONS} onChange={set('direction')} />
      <EnumSelect id="f-channel" label="Channel" value={draft.channel} options={CHANNELS} onChange={set('channel')} />
      <EnumSelect id="f-status" label="Status" value={draft.status} options={STATUSES} onChange={set('status')} />
      <EnumSelect id="f-outcome" label="Outcome" value={draft.outcome} options={OUTCOMES} onChange={set('outcome')} />
      <DateField id="f-from" label="From" value={draft.from} onChange={set('from')} />
      <DateField id="f-to" label="To" value={draft.to} onChange={set('to')} />
      <div class="filter-buttons">
        <button type="submit">Apply filters</button>
        <button type="button" class="secondary" onClick={() => props.onApply(NO_FILTERS)}>
          Clear filters
        </button>
      </div>
      {problem && (
        <p class="error filter-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
