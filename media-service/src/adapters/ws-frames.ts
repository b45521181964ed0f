import type { RawData } from 'ws';
import { ProviderError } from '../../../shared/errors';

/**
 * Turns a failed WebSocket connection into a `ProviderError` (`<what> connection failed: …`).
 * ws reports a refused upgrade as "Unexpected server response: 401"; keep the status for retryability.
 */
export function connectionError(provider: string, what: string, error: unknown): ProviderError {
  const message = (error as { message?: unknown } | undefined)?.message;
  const text = typeof message === 'string' ? message : String(error);
  const status = /Unexpected server response: (\d{3})/.exec(text)?.[1];
  return new ProviderError(provider, `${what} connection failed: ${text}`, status ? Number(status) : undefined, { cause: error });
}

/** One received ws frame as a single Buffer (ws may hand over a Buffer, an ArrayBuffer or fragments). */
export function toBytes(data: RawData): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
