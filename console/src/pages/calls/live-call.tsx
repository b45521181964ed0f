import { useState } from 'preact/hooks';
import { describeCallError, type CallView } from '../../talk/call-log';
import { endCall, useListen } from '../../talk/use-listen';

/** What a listener hears, line by line: a log region screen readers follow. */
function LiveTranscript(props: { view: CallView }) {
  const { lines } = props.view;
  return (
    <div role="log" aria-label="Live transcript" aria-live="polite" class="transcript-lines">
      <ol class="plain">
        {lines.length === 0 && <li class="muted">Nothing said since you started listening.</li>}
        {lines.map((line) => (
          <li key={line.key} class={`line ${line.role}`}>
            <span class="who">{line.role === 'assistant' ? 'Assistant' : 'Caller'}:</span> {line.text}
            {line.interrupted && <span class="mark"> (interrupted)</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** "End call", asked twice: the first press shows what will happen and a button to confirm it. */
function EndCall(props: { callId: number }) {
  const [step, setStep] = useState<'idle' | 'confirm' | 'ending' | 'asked'>('idle');
  const [error, setError] = useState<string>();
  const end = async () => {
    setStep('ending');
    try {
      await endCall(props.callId);
      setStep('asked');
    } catch (failure) {
      setError(describeCallError(failure));
      setStep('idle');
    }
  };
  return (
    <div class="end-call">
      {step === 'idle' && (
        <button type="button" class="danger" onClick={() => setStep('confirm')}>
          End call
        </button>
      )}
      {step === 'confirm' && (
        <div role="group" aria-label="Confirm ending the call">
          <p>End this call now? The caller is cut off; the call ends as canceled.</p>
          <button type="button" class="danger" onClick={() => void end()}>
            Yes, end the call
          </button>{' '}
          <button type="button" onClick={() => setStep('idle')}>
            Keep it
          </button>
        </div>
      )}
      {step === 'ending' && <p role="status">Ending the call…</p>}
      {step === 'asked' && <p role="status">The call is ending.</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A live call's controls on its page: "Listen" (both sides of the call and its live transcript,
 * read-only; the call must be in progress) and "End call" (with a confirmation).
 */
export function LiveCall(props: { callId: number; status: string }) {
  const { view, listen, stop } = useListen(props.callId);
  const listening = view.phase === 'connecting' || view.phase === 'live';
  const inProgress = props.status === 'in_progress';
  return (
    <section class="panel live-call" aria-labelledby="live-call-title">
      <h2 id="live-call-title">Live call</h2>
      <div class="actions">
        {!listening ? (
          <button type="button" onClick={() => void listen()} disabled={!inProgress} aria-describedby="listen-hint">
            Listen
          </button>
        ) : (
          <button type="button" onClick={stop}>
            Stop listening
          </button>
        )}
        <EndCall callId={props.callId} />
      </div>
      {!inProgress && (
        <p id="listen-hint" class="hint">
          Listening starts once the call is answered.
        </p>
      )}
      <p role="status">
        {view.phase === 'connecting'
          ? 'Connecting…'
          : view.phase === 'live'
            ? `Listening${view.state ? `: the assistant is ${view.state}` : ''}.`
            : ''}
        {view.phase === 'ended' && view.endedReason ? `The call ended (${view.endedReason.replaceAll('_', ' ')}).` : ''}
      </p>
      {view.error && (
        <p class="error" role="alert">
          {view.error}
        </p>
      )}
      {view.phase !== 'idle' && <LiveTranscript view={view} />}
    </section>
  );
}
