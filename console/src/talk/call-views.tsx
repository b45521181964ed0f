import { useState } from 'preact/hooks';
import { seconds, type CallView } from './call-log';

/** The issue's target for the time from "Talk to it" to the assistant's first words. */
const FIRST_WORDS_TARGET_MS = 2000;

/** The live transcript: a log region screen readers follow, caller and assistant lines as they arrive. */
export function Transcript(props: { view: CallView }) {
  const { lines } = props.view;
  return (
    <div class="talk-transcript">
      <h3 id="talk-transcript-title">Transcript</h3>
      <div role="log" aria-label="Transcript" aria-live="polite" class="transcript-lines">
        <ol class="plain">
          {lines.length === 0 && <li class="muted">Nothing said yet.</li>}
          {lines.map((line) => (
            <li key={line.key} class={`line ${line.role}${line.final ? '' : ' partial'}`}>
              <span class="who">{line.role === 'assistant' ? 'Assistant' : 'You'}:</span> {line.text}
              {!line.final && <span class="muted"> (still speaking…)</span>}
              {line.interrupted && <span class="mark"> (interrupted)</span>}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** Beside the transcript: the tools the assistant called and each turn's latency. */
export function CallSide(props: { view: CallView }) {
  const { tools, latencies } = props.view;
  return (
    <div class="talk-side">
      <h3>Tool calls</h3>
      {tools.length === 0 ? (
        <p class="muted">None yet.</p>
      ) : (
        <ul class="plain">
          {tools.map((tool, index) => (
            <li key={index}>
              <code>{tool.name}</code> <span class={tool.status === 'ok' ? 'ok' : 'error'}>{tool.status}</span>
              <details>
                <summary>Arguments and result</summary>
                <pre>{JSON.stringify({ arguments: tool.arguments, result: tool.result }, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ul>
      )}
      <h3>Latency</h3>
      {latencies.length === 0 ? (
        <p class="muted">No turns yet.</p>
      ) : (
        <ul class="plain">
          {latencies.map((turn) => (
            <li key={turn.turn}>
              Turn {turn.turn}: {turn.ms} ms
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The call's state, and the time from the click to the assistant's first words against the 2 s target. */
export function CallStatus(props: { view: CallView }) {
  const { phase, state, callId, firstWordsMs } = props.view;
  const what =
    phase === 'connecting'
      ? 'Connecting…'
      : phase === 'live'
        ? `Call ${callId ?? ''} is live${state ? `: the assistant is ${state}` : ''}.`
        : '';
  return (
    <div class="talk-status">
      <p role="status">{what}</p>
      {firstWordsMs !== undefined && (
        <p>
          First words after <strong>{seconds(firstWordsMs)}</strong>{' '}
          <span class={firstWordsMs <= FIRST_WORDS_TARGET_MS ? 'ok' : 'error'}>
            ({firstWordsMs <= FIRST_WORDS_TARGET_MS ? 'within' : 'over'} the {seconds(FIRST_WORDS_TARGET_MS)} target)
          </span>
        </p>
      )}
    </div>
  );
}

/** Typed speech: the line is spoken into the call as a caller's words are; Enter sends. With the microphone on, a mute switch. */
export function SayBox(props: { onSay: (text: string) => void; onHangUp: () => void; onMute?: (muted: boolean) => void }) {
  const [text, setText] = useState('');
  const [muted, setMuted] = useState(false);
  const send = (event: Event) => {
    event.preventDefault();
    const line = text.trim();
    if (line === '') return;
    props.onSay(line);
    setText('');
  };
  return (
    <div class="talk-controls">
      <form class="say" onSubmit={send}>
        <label for="talk-say">Say</label>
        <input id="talk-say" type="text" autoComplete="off" maxLength={500} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit">Send</button>
      </form>
      {props.onMute && (
        <div class="form-check">
          <input
            id="talk-mute"
            type="checkbox"
            checked={muted}
            onChange={(e) => {
              setMuted(e.currentTarget.checked);
              props.onMute?.(e.currentTarget.checked);
            }}
          />
          <label for="talk-mute">Mute my microphone</label>
        </div>
      )}
      <button type="button" class="danger" onClick={props.onHangUp}>
        Hang up
      </button>
    </div>
  );
}
