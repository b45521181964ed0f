import { serve } from '@hono/node-server';
import { createApp } from '../functions/api/app';
import { createAdminService, createApiDeps, createCoreDeps, createOutboundQueue, defaultLog } from '../functions/lib/deps';
import { AssistantService } from '../shared/services/assistant-service';
import { startLocalAfterCall } from './local/after-call';
import { startLocalInfra, writeStackInfo } from './local/infra';
import { startLocalMedia } from './local/media';
import { startLocalSweeper } from './local/sweeper';
import { localApiConfig } from './local/config';

const port = Number(process.env.PORT ?? 3000);

/** `npm run dev`: the whole product on this machine, no AWS account and no provider keys. */
async function main(): Promise<void> {
  const infra = await startLocalInfra();
  const config = localApiConfig(infra.info);
  const core = createCoreDeps(config);
  const api = createApiDeps(core, createOutboundQueue(config));
  // After the call: the call engine publishes call.started/transferred/ended to afterCall.events (the API publishes none).
  const afterCall = await startLocalAfterCall(core, config, { openAiApiKey: process.env.OPENAI_API_KEY || undefined });
  const media = await startLocalMedia(core, infra.info, {
    events: afterCall.events,
    ...(afterCall.llmBaseUrl && { openAiBaseUrl: afterCall.llmBaseUrl }),
  });
  // One sweeper for the stack, here in the parent process, never on the call engine's thread.
  const stopSweeper = startLocalSweeper(core, {
    queue: createOutboundQueue(config),
    events: afterCall.events,
    carrier: media.carrier,
    log: defaultLog,
  });
  const server = serve({ fetch: createApp(api).fetch, port });
  const apiUrl = `http://localhost:${port}/api/v1`;
  writeStackInfo({ ...infra.info, apiUrl, carrierUrl: media.carrierUrl });
  console.log(`API: ${apiUrl}`);
  console.log('Local stack: DynamoDB Local (.data/dynamodb), fauxqs (SQS + S3).');
  console.log(
    `After the call: call.ended → analysis (${afterCall.llmBaseUrl ? `sandbox LLM ${afterCall.llmBaseUrl}` : 'OpenAI'}) → signed webhooks with retries, via the local event router (same rules as EventBridge).`,
  );
  console.log(
    `Call engine: ${media.mediaUrl} (sandbox carrier ${media.carrierUrl}, sandbox Deepgram ${media.deepgramUrl}, OpenAI ${media.openAiUrl})`,
  );
  console.log('Sweeper: every minute in this process (SWEEP_EVERY_MS, SWEEP_STALE_HEARTBEAT_MS, ... to shorten).');
  console.log('Private and loopback URLs are ALLOWED for webhooks and custom LLMs (local development only).');
  if (infra.fresh) await seedDemo(core, api.assistants);
  const stop = async () => {
    server.close();
    stopSweeper();
    await media.stop(); // drains live calls first: their call.ended goes through the after-call pipeline
    await afterCall.stop();
    await infra.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** On a fresh data folder: a demo business with a sandbox number and a receptionist assistant. */
async function seedDemo(core: ReturnType<typeof createCoreDeps>, assistants: AssistantService): Promise<void> {
  const admin = createAdminService(core, 'test');
  const demo = await admin.createBusiness('Demo Dental', 100);
  const assistant = await assistants.create(demo.business_id, { name: 'Front desk', template: 'receptionist' });
  const number = await admin.addNumber(demo.business_id, {
    number: '+15550100001',
    provider: 'sandbox',
    assistantId: assistant.id,
    label: 'Demo line',
  });
  console.log('Seeded a demo business (shown once; keep the key):');
  console.log(JSON.stringify({ ...demo, assistant_id: assistant.id, phone_number_id: number.id }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
