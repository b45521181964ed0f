import { useEffect, useReducer, useRef } from 'preact/hooks';
// The browser client (web-client/, docs/protocols.md "Listening to a live call").
import { listenToCall } from '../../../web-client/src/index';
import { api, must } from '../api/client';
import { IDLE, reduceCall, type CallView } from './call-log';

type Listening = Awaited<ReturnType<typeof listenToCall>>;

/** Where the dev server and the CDK app serve the client's AudioWorklet (playback). */
const WORKLET_URL = '/web-call-worklet.js';

/** Listening to one live call, as the call's page drives it. */
export interface ListenControls {
  view: CallView;
  listen: () => Promise<void>;
  stop: () => void;
}

/**
 * Listens to a live call (`POST /calls/{id}/listen`, then the browser client with no microphone)
 * and folds its events into a {@link CallView}, as "Talk to it" does. Leaving the page stops
 * listening; the call goes on.
 */
export function useListen(callId: number): ListenControls {
  const [view, dispatch] = useReducer(reduceCall, IDLE);
  const listening = useRef<Listening | undefined>(undefined);
  useEffect(() => () => listening.current?.stop(), []);

  const listen = async () => {
    dispatch({ type: 'clicked', at: performance.now() });
    try {
      const grant = must(await api.POST('/calls/{call_id}/listen', { params: { path: { call_id: callId } } }));
      const started = await listenToCall({ url: grant.url, token: grant.token, workletUrl: WORKLET_URL });
      listening.current = started;
      dispatch({ type: 'started', callId });
      started.on('state', (payload: unknown) => dispatch({ type: 'state', payload, at: performance.now() }));
      started.on('transcript', (payload: unknown) => dispatch({ type: 'transcript', payload, at: performance.now() }));
      for (const type of ['latency', 'tool', 'error'] as const) started.on(type, (payload: unknown) => dispatch({ type, payload }));
      started.on('ended', (payload: unknown) => {
        listening.current = undefined;
        dispatch({ type: 'ended', payload });
      });
    } catch (failure) {
      dispatch({ type: 'error', payload: failure });
    }
  };
  const stop = () => {
    listening.current?.stop();
    listening.current = undefined;
    dispatch({ type: 'ended', payload: { reason: 'stopped listening' } });
  };
  return { view, listen, stop };
}

/** Asks the API to end the call (`POST /calls/{id}/end`); it ends `canceled` within about 2 s. */
export async function endCall(callId: number): Promise<void> {
  must(await api.POST('/calls/{call_id}/end', { params: { path: { call_id: callId } } }));
}
