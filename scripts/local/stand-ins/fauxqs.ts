import { startFauxqs } from 'fauxqs';

/** A running fauxqs (in-process SQS and S3 emulator speaking the real protocols). */
export interface Fauxqs {
  endpoint: string;
  stop(): Promise<void>;
}

/** Starts fauxqs on a random loopback port. */
export async function startFauxqsServer(): Promise<Fauxqs> {
  const server = await startFauxqs({ port: 0, logger: false });
  return { endpoint: server.address, stop: () => server.stop() };
}
