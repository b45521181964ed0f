import type { Schemas } from '../../api/client';
import { ms, offset } from '../parts/format';
import { speaker, transcriptRows } from '../parts/transcript';
import { TableWrap } from '../parts/table-wrap';

type Metrics = Schemas['CallDetail']['metrics'];

const turnsOf = (metrics: Metrics) => ('turns' in metrics ? metrics.turns : []);

/**
 * The conversation, line by line: who spoke, when (from the call's start), the line itself, a mark
 * where the caller cut the assistant off, and on each reply the latency of the turn it answered.
 */
export function Transcript(props: { transcript: Schemas['TranscriptEntry'][]; metrics: Metrics; live: boolean }) {
  const rows = transcriptRows(props.transcript, turnsOf(props.metrics));
  if (rows.length === 0) {
    return <p class="muted">{props.live ? 'The transcript is written when the call ends.' : 'Nothing was said on this call.'}</p>;
  }
  return (
    <ol class="transcript">
      {rows.map((row, i) => (
        <li key={i} class={`line ${row.role}`}>
          <span class="who">{speaker(row.role)}</span>
          <span class="at">{offset(row.start_ms)}</span>
          <span class="text">
            {row.text}
            {row.interrupted && (
              <span class="mark cut" title="The caller talked over the assistant here; only the words heard are kept.">
                {' '}
                — interrupted
              </span>
            )}
          </span>
          {row.turn !== undefined && (
            <span class="mark latency">
              replied in {ms(row.latencyMs)}
              {row.held ? ' (held until the assistant finished)' : ''}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Every turn's timing, as `metrics.turns` has it: the table behind the marks on the transcript. */
export function TurnLatency(props: { metrics: Metrics }) {
  const turns = turnsOf(props.metrics);
  if (turns.length === 0) return <p class="muted">No answered turns.</p>;
  const summary = 'latency_ms' in props.metrics ? props.metrics.latency_ms : undefined;
  return (
    <>
      {summary && (
        <p>
          Median {ms(summary.p50)}, 95th percentile {ms(summary.p95)}, slowest {ms(summary.max)}; {props.metrics.interruptions ?? 0}{' '}
          interruption{props.metrics.interruptions === 1 ? '' : 's'}.
        </p>
      )}
      <TableWrap label="Latency per turn table">
        <table>
          <caption class="sr-only">Latency per turn</caption>
          <thead>
            <tr>
              <th scope="col">Turn</th>
              <th scope="col">Caller finished at</th>
              <th scope="col" class="num">
                Latency
              </th>
              <th scope="col" class="num">
                Model first token
              </th>
              <th scope="col" class="num">
                Voice first byte
              </th>
            </tr>
          </thead>
          <tbody>
            {turns.map((turn, i) => (
              <tr key={i}>
                <th scope="row">
                  {i + 1}
                  {turn.held ? ' (held)' : ''}
                </th>
                <td>{typeof turn.at_ms === 'number' ? offset(turn.at_ms) : '—'}</td>
                <td class="num">{ms(turn.latency_ms)}</td>
                <td class="num">{ms(turn.llm_first_token_ms)}</td>
                <td class="num">{ms(turn.tts_first_byte_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}
