import { useEffect, useReducer, useRef, useState } from 'preact/hooks';
// The browser client (web-client/, docs/protocols.md "Web calls"): the same code a business puts on its own page.
import { startWebCall } from '../../../web-client/src/index';
import { describeCallError, IDLE, reduceCall } from './call-log';
import { CallSide, CallStatus, SayBox, Transcript } from './call-views';
import { createWebCall } from './web-call-api';

type WebCall = Awaited<ReturnType<typeof startWebCall>>;

/** Where the dev server and the CDK app serve the client's AudioWorklet (microphone capture). */
const WORKLET_URL = '/web-call-worklet.js';

/**
 * "Talk to it": a web call of this assistant from the browser, with the live transcript, tool
 * calls and per-turn latency beside it, typed speech ("Say") and "Hang up"; afterwards a link to
 * the call's page. The microphone is off by default: the sandbox has no recogniser, so typed
 * speech is how a call there is driven.
 */
export function TalkPanel(props: { assistantId: number }) {
  const [view, dispatch] = useReducer(reduceCall, IDLE);
  const [microphone, setMicrophone] = useState(false);
  const call = useRef<WebCall | undefined>(undefined);
  // Leaving the page ends the call: nothing keeps talking in the background.
  useEffect(() => () => call.current?.hangUp(), []);

  const talk = async () => {
    dispatch({ type: 'clicked', at: performance.now() });
    try {
      const grant = await createWebCall(props.assistantId);
      const started = await startWebCall({ url: grant.url, token: grant.token, microphone, workletUrl: WORKLET_URL });
      call.current = started;
      dispatch({ type: 'started', callId: started.callId ?? grant.call_id });
      started.on('state', (payload: unknown) => dispatch({ type: 'state', payload, at: performance.now() }));
      started.on('transcript', (payload: unknown) => dispatch({ type: 'transcript', payload, at: performance.now() }));
      for (const type of ['latency', 'tool', 'error', 'ended'] as const)
        started.on(type, (payload: unknown) => dispatch({ type, payload }));
    } catch (failure) {
      dispatch({ type: 'error', payload: failure });
    }
  };
  const live = view.phase === 'live';
  const busy = view.phase === 'connecting' || live;

  return (
    <section class="panel talk" aria-labelledby="talk-title">
      <h2 id="talk-title">Web call</h2>
      {!busy && (
        <div class="talk-start">
          <div class="form-check">
            <input
              id="talk-mic"
              type="checkbox"
              checked={microphone}
              onChange={(e) => setMicrophone(e.currentTarget.checked)}
              aria-describedby="talk-mic-hint"
            />
            <label for="talk-mic">Use my microphone</label>
          </div>
          <p id="talk-mic-hint" class="hint">
            Off: type what you would say. The local sandbox has no speech recogniser, so the microphone needs real provider keys.
          </p>
          <button type="button" onClick={talk}>
            Talk to it
          </button>
        </div>
      )}
      <CallStatus view={view} />
      {view.error && (
        <p class="error" role="alert">
          {view.error}
        </p>
      )}
      {live && (
        <SayBox
          onSay={(text) => call.current?.say(text)}
          onHangUp={() => {
            try {
              call.current?.hangUp();
            } catch (failure) {
              dispatch({ type: 'error', payload: describeCallError(failure) });
            }
          }}
        />
      )}
      {view.phase !== 'idle' && (
        <div class="talk-live">
          <Transcript view={view} />
          <CallSide view={view} />
        </div>
      )}
      {(view.phase === 'ended' || view.phase === 'failed') && view.callId !== undefined && (
        <p role="status">
          The call ended{view.endedReason ? ` (${view.endedReason.replaceAll('_', ' ')})` : ''}.{' '}
          <a href={`/calls/${view.callId}`}>Open the call's page</a> for its recording, transcript and analysis.
        </p>
      )}
    </section>
  );
}
