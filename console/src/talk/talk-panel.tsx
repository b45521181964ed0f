import { useState } from 'preact/hooks';
import { CallSide, CallStatus, SayBox, Transcript } from './call-views';
import { useWebCall } from './use-web-call';

/**
 * "Talk to it": a web call of this assistant from the browser, with the live transcript, tool
 * calls and per-turn latency beside it, typed speech ("Say") and "Hang up"; afterwards a link to
 * the call's page. The microphone is off by default: the sandbox has no recogniser, so typed
 * speech is how a call there is driven.
 */
export function TalkPanel(props: { assistantId: number }) {
  const { view, start, say, hangUp, setMuted } = useWebCall(props.assistantId);
  const [microphone, setMicrophone] = useState(false);
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
          <button type="button" onClick={() => void start(microphone)}>
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
      {live && <SayBox onSay={say} onHangUp={hangUp} onMute={microphone ? setMuted : undefined} />}
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
