/** The origins outside its own that the console's pages may reach. */
export interface ConsoleOrigins {
  /** The REST API's origin (`https://<id>.execute-api.<region>.amazonaws.com`): fetches. */
  readonly apiOrigin: string;
  /**
   * The media service's WebSocket origin (`wss://voice.example.com`): web calls and live
   * listening. Absent on a stage without TLS: a page served over HTTPS may not open a `ws://`
   * socket anyway (mixed content).
   */
  readonly mediaWebSocketOrigin?: string;
  /** The recordings bucket's origin: presigned recording links play in an audio element. */
  readonly recordingsOrigin: string;
}

/**
 * The console's Content-Security-Policy: its own scripts and styles only, no inline code, no
 * framing, and connections to the API and the media service alone. `blob:` media is the web
 * call's own audio. Values may hold CDK tokens (the API's id); they resolve in the template.
 * @example consoleContentSecurityPolicy({ apiOrigin: 'https://abc.execute-api.eu-west-1.amazonaws.com', recordingsOrigin: 'https://b.s3.eu-west-1.amazonaws.com' })
 */
export function consoleContentSecurityPolicy(origins: ConsoleOrigins): string {
  const connect = ["'self'", origins.apiOrigin, ...(origins.mediaWebSocketOrigin ? [origins.mediaWebSocketOrigin] : [])];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'data:']],
    ['media-src', ["'self'", 'blob:', origins.recordingsOrigin]],
    ['connect-src', connect],
    ['frame-ancestors', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}
