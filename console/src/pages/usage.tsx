import { useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api/client';
import { ErrorNote, Loading, Page } from '../ui/page';
import { useApi } from '../ui/use-api';
import { BarTable } from './parts/bar-table';
import { OUTCOMES } from './parts/calls-query';
import { callStats, turnLatency } from './parts/usage-stats';

/**
 * GET /usage says minutes and concurrency now; it says nothing about past calls. So the page counts
 * the period's calls from GET /calls itself: at most 5 pages of 200 (a second or two of reads), and
 * latency from the per-turn metrics of the 20 latest answered calls (one GET each).
 */
const MAX_PAGES = 5;
const LATENCY_CALLS = 20;
const PERIODS = [
  ['1', 'Last 24 hours'],
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
] as const;

async function periodCalls(days: number): Promise<{ calls: Schemas['Call'][]; complete: boolean }> {
  const created_after = new Date(Date.now() - days * 86_400_000).toISOString();
  const calls: Schemas['Call'][] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = must(await api.GET('/calls', { params: { query: { limit: 200, created_after, ...(cursor && { cursor }) } } }));
    calls.push(...result.data);
    if (!result.next_cursor) return { calls, complete: true };
    cursor = result.next_cursor;
  }
  return { calls, complete: false };
}

async function latestDetails(calls: Schemas['Call'][]): Promise<Schemas['CallDetail'][]> {
  const answered = calls.filter((call) => call.status === 'ended' && call.started_at !== null).slice(0, LATENCY_CALLS);
  return Promise.all(answered.map(async (call) => must(await api.GET('/calls/{call_id}', { params: { path: { call_id: call.id } } }))));
}

function Now(props: { usage: Schemas['Usage'] }) {
  const { usage } = props;
  return (
    <dl class="facts">
      <dt>Minutes left</dt>
      <dd>{usage.minutes_remaining.toLocaleString('en-US')}</dd>
      <dt>Minutes reserved</dt>
      <dd>{usage.minutes_reserved.toLocaleString('en-US')} (held by calls under way until they are settled)</dd>
      <dt>Calls under way</dt>
      <dd>
        {usage.live_calls} of at most {usage.max_concurrent_calls} at once
      </dd>
      <dt>Calls queued</dt>
      <dd>{usage.queued_calls}</dd>
    </dl>
  );
}

function Period(props: { days: number }) {
  const period = useApi(async () => {
    const { calls, complete } = await periodCalls(props.days);
    return { stats: callStats(calls, OUTCOMES), complete, latency: turnLatency(await latestDetails(calls)) };
  }, [props.days]);
  if (period.error) return <ErrorNote error={period.error} />;
  if (!period.data) return <Loading what="the period's calls" />;
  const { stats, complete, latency } = period.data;
  return (
    <>
      <p>
        {complete ? '' : 'At least '}
        {stats.calls.toLocaleString('en-US')} calls, {stats.minutesUsed.toLocaleString('en-US')} minutes billed
        {complete ? '.' : ` (only the latest ${(MAX_PAGES * 200).toLocaleString('en-US')} calls are counted here).`}
      </p>
      <div class="grid">
        <BarTable caption="Calls by outcome" kind="Outcome" unit="Calls" bars={stats.byOutcome} />
        <div>
          <BarTable caption="Calls by channel" kind="Channel" unit="Calls" bars={stats.byChannel} />
          <BarTable caption="Calls by direction" kind="Direction" unit="Calls" bars={stats.byDirection} />
        </div>
      </div>
      <h2>Latency</h2>
      <p class="hint">
        From the end of the caller's speech to the assistant's first audio, over every turn of the latest {LATENCY_CALLS} answered calls in
        the period ({latency.turns} turns).
      </p>
      {latency.turns === 0 ? (
        <p class="muted">No answered turns in the period yet.</p>
      ) : (
        <BarTable
          caption="Reply latency in milliseconds"
          kind="Percentile"
          unit="Milliseconds"
          bars={[
            { label: 'median (p50)', value: latency.p50 ?? 0 },
            { label: '95th percentile', value: latency.p95 ?? 0 },
            { label: 'slowest', value: latency.max ?? 0 },
          ]}
        />
      )}
    </>
  );
}

/** Minutes and concurrency now (GET /usage), then a period's calls: how many, their outcomes and channels, and reply latency. */
export default function Usage() {
  const usage = useApi(async () => must(await api.GET('/usage')), []);
  const [days, setDays] = useState(7);
  return (
    <Page title="Usage">
      <h2>Now</h2>
      <ErrorNote error={usage.error} />
      {!usage.data && !usage.error && <Loading what="usage" />}
      {usage.data && <Now usage={usage.data} />}
      <h2>Calls</h2>
      <div class="filters">
        <div>
          <label for="u-period">Period</label>
          <select id="u-period" value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
            {PERIODS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Period days={days} />
    </Page>
  );
}
