import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, must, type Schemas } from '../../api/client';
import { ErrorNote, Loading, Page } from '../../ui/page';
import { useApi } from '../../ui/use-api';
import { noRecordingReason, refreshEvery } from '../parts/recording';
import { LiveCall } from './live-call';
import { Actions, Analysis, Deliveries, Facts, WorkflowPath } from './sections';
import { Transcript, TurnLatency } from './transcript';

/** A call under way (or waiting for its analysis) re-reads itself this often. */
const LIVE_REFRESH_MS = 2_000;

type Call = Schemas['CallDetail'];

/** The assistant behind the call, when it still exists: its name, and its recording settings to explain a missing recording. */
function useAssistant(id: number | undefined): Schemas['Assistant'] | undefined {
  const [assistant, setAssistant] = useState<Schemas['Assistant']>();
  useEffect(() => {
    if (id === undefined) return;
    let live = true;
    void api.GET('/assistants/{assistant_id}', { params: { path: { assistant_id: id } } }).then((r) => live && setAssistant(r.data));
    return () => {
      live = false;
    };
  }, [id]);
  return assistant;
}

/**
 * The first recording link the page was given: every read of the call signs a new one, and a new
 * `src` would stop a recording that is playing.
 */
function useFirstUrl(url: string | null): string | null {
  const [first, setFirst] = useState(url);
  useEffect(() => {
    if (first === null && url !== null) setFirst(url);
  }, [url]);
  return first ?? url;
}

function Recording(props: { call: Call; assistant: Schemas['Assistant'] | undefined }) {
  const { call } = props;
  const src = useFirstUrl(call.recording_url);
  if (src) {
    return (
      <>
        <audio controls preload="metadata" src={src} aria-label="Recording" />
        <p class="hint">
          Two channels: the caller on the left, the assistant on the right. The link is valid for 15 minutes; reload the page for a new one.
        </p>
      </>
    );
  }
  return <p class="muted">No recording. {noRecordingReason(call, props.assistant?.config.advanced, Date.now())}</p>;
}

/**
 * A part of the page under its heading. Not a named region: "Recording" must name the audio player
 * alone, so a test (or a screen reader user) asking for "Recording" finds exactly one thing.
 */
function Section(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/**
 * One call: its facts, recording, transcript (interruption marks, per-turn latency), tool calls,
 * workflow path, analysis and webhook deliveries. While it is queued, ringing or in progress it
 * re-reads itself every 2 s, and after it ends until its analysis is in.
 */
export default function CallPage() {
  const { params } = useRoute();
  const id = Number(params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const [everyMs, setEveryMs] = useState<number>();
  const call = useApi(async () => must(await api.GET('/calls/{call_id}', { params: { path: { call_id: id } } })), [id], everyMs);
  useEffect(() => setEveryMs(call.data && refreshEvery(call.data, Date.now(), LIVE_REFRESH_MS)), [call.data]);
  const live = call.data !== undefined && call.data.status !== 'ended';
  const assistant = useAssistant(call.data?.assistant_id);
  if (!valid) {
    return (
      <Page title="Call">
        <p class="error" role="alert">
          "{params.id}" is not a call id. <a href="/calls">Back to the calls</a>.
        </p>
      </Page>
    );
  }
  const data = call.data;
  return (
    <Page title={`Call ${id}`} actions={<a href="/calls">All calls</a>}>
      <ErrorNote error={call.error} />
      {!data && !call.error && <Loading what="the call" />}
      {data && (
        <>
          {live && (
            <>
              <p class="live-note">This call is {data.status.replace('_', ' ')}; this page reads it again every 2 seconds.</p>
              <LiveCall callId={data.id} status={data.status} />
            </>
          )}
          <div class="grid">
            <Section id="facts" title="Facts">
              <Facts call={data} assistant={assistant?.name} />
            </Section>
            <Section id="recording" title="Recording">
              <Recording key={data.id} call={data} assistant={assistant} />
            </Section>
          </div>
          <Section id="transcript" title="Transcript">
            <Transcript transcript={data.transcript} metrics={data.metrics} live={live} />
          </Section>
          <Section id="latency" title="Latency per turn">
            <TurnLatency metrics={data.metrics} />
          </Section>
          <Section id="actions" title="Actions">
            <Actions actions={data.actions} live={live} />
          </Section>
          <Section id="workflow" title="Workflow path">
            <WorkflowPath workflow={data.workflow} live={live} />
          </Section>
          <Section id="analysis" title="Analysis">
            <Analysis call={data} />
          </Section>
          <Section id="webhooks" title="Webhook deliveries">
            <Deliveries deliveries={data.webhook_deliveries} />
          </Section>
        </>
      )}
    </Page>
  );
}
