import { useEffect, useReducer, useRef } from 'preact/hooks';
// The browser client (web-client/, docs/protocols.md "Web calls"): the same code a business puts on its own page.
import { startWebCall } from '../../../web-client/src/index';
import { IDLE, reduceCall, type CallView } from './call-log';
import { createWebCall } from './web-call-api';

type WebCall = Awaited<ReturnType<typeof startWebCall>>;

/** Where the dev server and the CDK app serve the client's AudioWorklet (microphone capture). */
const WORKLET_URL = '/web-call-worklet.js';

/** A web call of one assistant, as the panel drives it. */
export interface WebCallControls {
  view: CallView;
  start: (microphone: boolean) => Promise<void>;
  say: (text: string) => void;
  hangUp: () => void;
  setMuted: (muted: boolean) => void;
}

/**
 * Starts a web call (`POST /calls/web`, then the browser client) and folds its events into a
 * {@link CallView}. Leaving the page hangs up: nothing keeps talking in the background.
 */
export function useWebCall(assistantId: number): WebCallControls {
  const [view, dispatch] = useReducer(reduceCall, IDLE);
  const call = useRef<WebCall | undefined>(undefined);
  useEffect(() => () => void act(() => call.current?.hangUp()), []);

  /** Runs a client method; a throw or a rejected promise is shown as the call's error, never lost. */
  function act(step: () => unknown): void {
    try {
      Promise.resolve(step()).catch((failure: unknown) => dispatch({ type: 'error', payload: failure }));
    } catch (failure) {
      dispatch({ type: 'error', payload: failure });
    }
  }

  const start = async (microphone: boolean) => {
    dispatch({ type: 'clicked', at: performance.now() });
    try {
      const grant = await createWebCall(assistantId);
      const started = await startWebCall({ url: grant.url, token: grant.token, microphone, workletUrl: WORKLET_URL });
      call.current = started;
      dispatch({ type: 'started', callId: started.callId ?? grant.call_id });
      started.on('state', (payload: unknown) => dispatch({ type: 'state', payload, at: performance.now() }));
      started.on('transcript', (payload: unknown) => dispatch({ type: 'transcript', payload, at: performance.now() }));
      for (const type of ['latency', 'tool', 'error'] as const) started.on(type, (payload: unknown) => dispatch({ type, payload }));
      started.on('ended', (payload: unknown) => {
        call.current = undefined;
        dispatch({ type: 'ended', payload });
      });
    } catch (failure) {
      dispatch({ type: 'error', payload: failure });
    }
  };
  return {
    view,
    start,
    say: (text) => act(() => call.current?.say(text)),
    hangUp: () => act(() => call.current?.hangUp()),
    setMuted: (muted) => act(() => call.current?.setMuted(muted)),
  };
}
