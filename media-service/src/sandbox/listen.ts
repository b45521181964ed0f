import type { Server } from 'node:http';

/**
 * Binds a sandbox server: loopback and a free port unless told otherwise; resolves once bound,
 * rejects when the port is taken.
 */
export function listenSandbox(http: Server, options: { port?: number; host?: string }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
}
