import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';

/**
 * twilio-node has no base-URL option: its documented route is a custom `httpClient`
 * (docs/protocols.md "Pointing the SDKs"). This one sends every request to `origin` instead of
 * `https://api.twilio.com`, path and query unchanged, so the official SDK talks to the sandbox
 * carrier (or any loopback server) over plain HTTP.
 */
export class LoopbackRequestClient extends twilio.RequestClient {
  constructor(private readonly origin: string) {
    super();
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const uri = new URL(opts.uri);
    return super.request<TData>({ ...opts, uri: `${this.origin}${uri.pathname}${uri.search}` });
  }
}

/** The official client for the account, pointed at `origin`. */
export function loopbackTwilio(accountSid: string, authToken: string, origin: string): ReturnType<typeof twilio> {
  return twilio(accountSid, authToken, { httpClient: new LoopbackRequestClient(origin) });
}
