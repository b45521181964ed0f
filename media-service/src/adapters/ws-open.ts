import type WebSocket from 'ws';
import { ProviderError } from '../../../shared/errors';
import { connectionError } from './ws-frames';

/**
 * Resolves once `socket` (an OpenAI socket being opened) is open. An error, a close or `signal`
 * first terminates it and rejects with a `ProviderError`. Its own listeners go once it settles:
 * the caller attaches those it needs for an open socket.
 */
export function socketOpen(socket: WebSocket, signal: AbortSignal, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      socket.off('open', onOpen);
      socket.off('error', onError);
      socket.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (!error) return resolve();
      // A socket terminated while connecting still reports an error: heard, and dropped.
      socket.on('error', () => undefined);
      socket.terminate();
      reject(error instanceof ProviderError ? error : connectionError('openai', what, error));
    };
    const onOpen = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = (code: number) => settle(new ProviderError('openai', `${what} closed while connecting (code ${code}).`));
    const onAbort = () => settle(new ProviderError('openai', 'Aborted while connecting.'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('open', onOpen);
    socket.on('error', onError);
    socket.on('close', onClose);
  });
}
