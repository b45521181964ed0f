import { useRef, useState, useEffect } from 'preact/hooks';
import { api, apiError, must, type ApiError, type Schemas } from '../api/client';
import { ErrorNote, Loading, Page } from '../ui/page';
import { useApi } from '../ui/use-api';
import { DateField, EnumSelect } from './parts/fields';
import { Pager, useCursorPages } from './parts/pager';
import { TableWrap } from './parts/table-wrap';

type Booking = Schemas['Booking'];
const STATUSES: readonly Booking['status'][] = ['confirmed', 'cancelled'];

/** Today as a local date, the list's default start: upcoming bookings first. */
const today = () => new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

/** A booking's time in the business's own time zone (where the appointment happens), not the viewer's. */
function BookingTime(props: { booking: Booking }) {
  const { start, timezone } = props.booking;
  const text = new Date(start).toLocaleString(undefined, { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' });
  return <time dateTime={start}>{`${text} (${timezone})`}</time>;
}

/** Asks before a booking is cancelled (its time is offered again at once), with focus on the question. */
function ConfirmCancel(props: { booking: Booking; onDone: (error?: ApiError) => void; onKeep: () => void }) {
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const cancel = async () => {
    setBusy(true);
    const result = await api.POST('/bookings/{booking_id}/cancel', { params: { path: { booking_id: props.booking.id } } });
    setBusy(false);
    props.onDone(result.error === undefined ? undefined : apiError(result.response.status, result.error));
  };
  return (
    <div class="confirm" role="group" aria-labelledby={`confirm-${props.booking.id}`}>
      <p id={`confirm-${props.booking.id}`} tabIndex={-1} ref={heading}>
        Cancel {props.booking.name || 'this caller'}'s {props.booking.service} on <BookingTime booking={props.booking} />? The time becomes
        free again.
      </p>
      <button type="button" class="danger" disabled={busy} onClick={cancel}>
        Yes, cancel it
      </button>{' '}
      <button type="button" class="secondary" disabled={busy} onClick={props.onKeep}>
        Keep it
      </button>
    </div>
  );
}

function BookingRow(props: { booking: Booking; onCancel: () => void }) {
  const { booking } = props;
  return (
    <tr>
      <td>
        <BookingTime booking={booking} />
      </td>
      <td>{booking.service}</td>
      <td>
        {booking.name || '—'}
        {booking.phone && <div class="muted">{booking.phone}</div>}
        {booking.email && <div class="muted">{booking.email}</div>}
      </td>
      <td class={booking.status === 'cancelled' ? 'muted' : 'ok'}>{booking.status}</td>
      <td>{booking.call_id ? <a href={`/calls/${booking.call_id}`}>Call {booking.call_id}</a> : '—'}</td>
      <td>
        {booking.status === 'confirmed' && (
          <button type="button" class="secondary" onClick={props.onCancel} aria-label={`Cancel booking ${booking.id}`}>
            Cancel
          </button>
        )}
      </td>
    </tr>
  );
}

/** Bookings by start time, from today on by default; each confirmed one can be cancelled after a confirmation. */
export default function Bookings() {
  const [filters, setFilters] = useState({ from: today(), to: '', status: '' as '' | Booking['status'] });
  const [draft, setDraft] = useState(filters);
  const [asking, setAsking] = useState<Booking>();
  const [note, setNote] = useState<string>();
  const [failure, setFailure] = useState<ApiError>();
  const pages = useCursorPages();
  const list = useApi(async () => {
    const query = { limit: 50, ...(pages.cursor && { cursor: pages.cursor }), ...(filters.from && { from: filters.from }) };
    return must(
      await api.GET('/bookings', {
        params: { query: { ...query, ...(filters.to && { to: filters.to }), ...(filters.status && { status: filters.status }) } },
      }),
    );
  }, [filters, pages.cursor]);
  const apply = (event: Event) => {
    event.preventDefault();
    pages.reset();
    setFilters(draft);
  };
  const done = (booking: Booking) => (error?: ApiError) => {
    setAsking(undefined);
    setFailure(error);
    setNote(error ? undefined : `Booking ${booking.id} is cancelled.`);
    list.reload();
    // The question (and the button that had focus) is gone: put focus back at the top of the page, not on <body>.
    document.getElementById('page-title')?.focus();
  };
  return (
    <Page title="Bookings">
      <form class="filters" onSubmit={apply} aria-label="Filter bookings">
        <DateField id="b-from" label="From" value={draft.from} onChange={(from) => setDraft({ ...draft, from })} />
        <DateField id="b-to" label="To" value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
        <EnumSelect
          id="b-status"
          label="Status"
          value={draft.status}
          options={STATUSES}
          onChange={(status) => setDraft({ ...draft, status })}
        />
        <div class="filter-buttons">
          <button type="submit">Apply filters</button>
        </div>
      </form>
      <p role="status" class="ok">
        {note}
      </p>
      <ErrorNote error={failure ?? list.error} />
      {!list.data && !list.error && <Loading what="bookings" />}
      {asking && (
        <ConfirmCancel
          booking={asking}
          onDone={done(asking)}
          onKeep={() => (setAsking(undefined), document.getElementById('page-title')?.focus())}
        />
      )}
      {list.data && list.data.data.length === 0 && <p>No bookings in this range.</p>}
      {list.data && list.data.data.length > 0 && (
        <TableWrap label="Bookings table">
          <table>
            <caption class="sr-only">Bookings, earliest first</caption>
            <thead>
              <tr>
                {['Time', 'Service', 'Caller', 'Status', 'Call', 'Action'].map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((booking) => (
                <BookingRow key={booking.id} booking={booking} onCancel={() => (setNote(undefined), setAsking(booking))} />
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <Pager pages={pages} nextCursor={list.data?.next_cursor} label="Bookings" />
    </Page>
  );
}
