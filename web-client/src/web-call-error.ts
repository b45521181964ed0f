/**
 * Why a web call could not start: `code` is the server's error code (`bad_token`,
 * `origin_not_allowed`, `at_capacity`, `no_minutes`, `bad_message`) or the client's own
 * (`audio_blocked`, `connection_closed`, `connection_error`, `start_timeout`,
 * `unsupported_audio`, `worklet_unavailable`).
 */
export class WebCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'WebCallError';
  }
}
