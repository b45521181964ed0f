import type { ComponentChildren } from 'preact';
import type { Schemas } from '../../api/client';
import { When } from '../../ui/page';
import { json, ms, offset, words } from '../parts/format';
import { TableWrap } from '../parts/table-wrap';

type Call = Schemas['CallDetail'];

/** The tool calls of the call, in order, with what each was asked and what it answered. */
export function Actions(props: { actions: Schemas['ToolAction'][]; live: boolean }) {
  if (props.live) return <p class="muted">Tool calls are listed when the call ends.</p>;
  if (props.actions.length === 0) return <p class="muted">No tool calls.</p>;
  return (
    <TableWrap label="Tool calls table">
      <table>
        <caption class="sr-only">Tool calls</caption>
        <thead>
          <tr>
            <th scope="col">At</th>
            <th scope="col">Tool</th>
            <th scope="col">Arguments</th>
            <th scope="col">Result</th>
            <th scope="col" class="num">
              Took
            </th>
          </tr>
        </thead>
        <tbody>
          {props.actions.map((action, i) => (
            <tr key={i}>
              <td>{offset(action.at_ms)}</td>
              <th scope="row">{action.name}</th>
              <td>
                <pre class="json">{json(action.arguments)}</pre>
              </td>
              <td class={action.ok ? 'ok' : 'error'}>
                {action.ok ? `Worked: ${action.result || 'done'}` : `Failed: ${action.error ?? 'no reason given'}`}
              </td>
              <td class="num">{ms(action.duration_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The workflow's nodes the call went through, in order, and what it collected on the way. */
export function WorkflowPath(props: { workflow: Call['workflow']; live: boolean }) {
  const { workflow } = props;
  if (props.live) return <p class="muted">The workflow path is written when the call ends.</p>;
  if (!workflow) return <p class="muted">This call ran no workflow.</p>;
  const variables = Object.entries(workflow.variables);
  return (
    <>
      <p>
        Workflow <a href={`/workflows/${workflow.id}`}>#{workflow.id}</a>
      </p>
      <ol class="path">
        {workflow.path.map((step, i) => (
          <li key={i}>
            <code>{step.node}</code> <span class="muted">at {offset(step.at_ms)}</span>
          </li>
        ))}
      </ol>
      {variables.length > 0 && (
        <dl class="facts">
          {variables.map(([name, value]) => (
            <Fact key={name} term={name}>
              {typeof value === 'string' ? value : json(value)}
            </Fact>
          ))}
        </dl>
      )}
    </>
  );
}

function Fact(props: { term: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </>
  );
}

/** The after-call analysis: summary, intent, score and the assistant's own structured fields. */
export function Analysis(props: { call: Call }) {
  const { call } = props;
  const analysis = call.analysis;
  if (analysis.error) return <p class="error">The analysis gave up: {analysis.error}</p>;
  if (call.status !== 'ended') return <p class="muted">The analysis runs when the call ends.</p>;
  const fields = Object.entries(analysis.structured_data ?? {});
  return (
    <dl class="facts">
      <Fact term="Summary">{call.summary || <span class="muted">not written yet</span>}</Fact>
      <Fact term="Intent">{call.intent || '—'}</Fact>
      <Fact term="Score">{call.score ?? '—'}</Fact>
      <Fact term="Success evaluation">{analysis.success_evaluation ?? '—'}</Fact>
      {fields.map(([name, value]) => (
        <Fact key={name} term={name}>
          {value === null ? <span class="muted">not found</span> : typeof value === 'string' ? value : json(value)}
        </Fact>
      ))}
    </dl>
  );
}

/** Each webhook sent for the call: its event, where it stands, and its last attempt. */
export function Deliveries(props: { deliveries: Schemas['WebhookDelivery'][] }) {
  if (props.deliveries.length === 0)
    return <p class="muted">No webhooks (the assistant's advanced.server_events names none, or none is due yet).</p>;
  return (
    <TableWrap label="Webhook deliveries table">
      <table>
        <caption class="sr-only">Webhook deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col" class="num">
              Attempts
            </th>
            <th scope="col">Last status</th>
            <th scope="col">Last attempt</th>
          </tr>
        </thead>
        <tbody>
          {props.deliveries.map((delivery) => {
            const last = delivery.attempts.at(-1);
            return (
              <tr key={delivery.webhook_id}>
                <th scope="row">{delivery.event_type}</th>
                <td class={delivery.state === 'failed' ? 'error' : delivery.state === 'delivered' ? 'ok' : undefined}>{delivery.state}</td>
                <td class="num">{delivery.attempts.length}</td>
                <td>{last ? (last.status ?? last.error ?? '—') : '—'}</td>
                <td>{last ? <When at={last.at} /> : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The call's facts, as a definition list. */
export function Facts(props: { call: Call; assistant: string | undefined }) {
  const { call } = props;
  return (
    <dl class="facts">
      <Fact term="Status">{words(call.status)}</Fact>
      <Fact term="Outcome">{words(call.outcome)}</Fact>
      <Fact term="Reason">{words(call.ended_reason)}</Fact>
      <Fact term="Duration">{call.duration_s} s</Fact>
      <Fact term="Channel">{call.channel}</Fact>
      <Fact term="Direction">{call.direction}</Fact>
      <Fact term="From">{call.from_number || '—'}</Fact>
      <Fact term="To">{call.to_number || '—'}</Fact>
      <Fact term="Assistant">
        <a href={`/assistants/${call.assistant_id}`}>{props.assistant ?? `#${call.assistant_id}`}</a>
      </Fact>
      <Fact term="Billed minutes">{call.billed_minutes ?? <span class="muted">not settled yet</span>}</Fact>
      <Fact term="Score">{call.score ?? '—'}</Fact>
      <Fact term="Caller name">{call.caller_name ?? '—'}</Fact>
      <Fact term="Created">
        <When at={call.created_at} />
      </Fact>
      <Fact term="Started">
        <When at={call.started_at} />
      </Fact>
      <Fact term="Ended">
        <When at={call.ended_at} />
      </Fact>
      <Fact term="Answered by">{words(call.answered_by)}</Fact>
      {call.transferred_to && <Fact term="Transferred to">{call.transferred_to}</Fact>}
    </dl>
  );
}
