import { createAdminService, type CoreDeps } from '../functions/lib/deps';
import { templateConfig } from '../shared/domain/templates';
import type { AssistantService } from '../shared/services/assistant-service';
import { buildWeb } from './build-web';
import { writeStackInfo } from './local/infra';
import type { LocalMedia } from './local/media';
import { parseMediaTasks, startLocalStack } from './local/stack';

/** `npm run dev`: the whole product on this machine, no AWS account and no provider keys. */
async function main(): Promise<void> {
  const mediaTasks = parseMediaTasks(process.env.MEDIA_TASKS);
  // The console and the browser call client, from source (about a second): what / serves.
  await buildWeb({ quiet: true });
  const stack = await startLocalStack({
    apiPort: Number(process.env.PORT ?? 3000),
    mediaPort: Number(process.env.MEDIA_PORT ?? 3001),
    mediaTasks,
    sweeper: true,
    ...(process.env.OPENAI_API_KEY && { openAiApiKey: process.env.OPENAI_API_KEY }),
  });
  const { media, afterCall } = stack;
  writeStackInfo(stack.info);
  console.log(`Console: ${stack.consoleUrl} (sign in with an API key; "Talk to it" on an assistant makes a web call)`);
  console.log(`API: ${stack.apiUrl}`);
  console.log('Local stack: DynamoDB Local (.data/dynamodb), fauxqs (SQS + S3).');
  console.log(
    `After the call: call.ended → analysis (${afterCall.llmBaseUrl ? `sandbox LLM ${afterCall.llmBaseUrl}` : 'OpenAI'}) → signed webhooks with retries, via the local event router (same rules as EventBridge).`,
  );
  console.log(
    `Call engine: ${media.mediaUrl} (sandbox carrier ${media.carrierUrl}, sandbox Deepgram ${media.deepgramUrl}, OpenAI ${media.openAiUrl})`,
  );
  console.log(
    `Payment links: sandbox payment server ${media.paymentsUrl} (the Stripe wire; pages at /pay/<id>, every session at /sandbox/checkout-sessions). A business without its own key uses the sandbox test key.`,
  );
  printTasks(media, mediaTasks);
  console.log(
    `Texts and email the assistants send: GET ${media.carrierUrl}/sandbox/messages (sandbox carrier; Basic auth AC00000000000000000000000000000000 : .data/sandbox-auth-token), GET ${media.mailUrl}/store (local SES).`,
  );
  console.log('Sweeper: every minute in this process (SWEEP_EVERY_MS, SWEEP_STALE_HEARTBEAT_MS, … shorten it).');
  console.log(
    'Private and loopback URLs are ALLOWED for webhooks, custom LLMs, tool server_url and knowledge document URLs (local development only).',
  );
  if (stack.fresh) await seedDemo(stack.core, stack.assistants);
  const stop = async () => {
    await stack.stop(); // drains live calls first: their call.ended goes through the after-call pipeline
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** One line per call-engine process: where it listens and its pid (`kill -9 <pid>` tests failover). */
function printTasks(media: LocalMedia, count: number): void {
  if (count === 1) {
    const [task] = media.tasks;
    console.log(`  call engine 1: ${task!.url} pid ${task!.pid} (in this process; MEDIA_TASKS=2 runs separate processes)`);
    return;
  }
  console.log(`  ${count} call-engine processes behind the round-robin proxy ${media.mediaUrl} (what the carrier calls):`);
  for (const task of media.tasks) console.log(`  call engine ${task.number}: ${task.url} pid ${task.pid}`);
}

/** Where the demo business's team notices go: only ever into the local SES stand-in's store. */
const DEMO_TEAM_EMAIL = 'frontdesk@demo-dental.test';

/**
 * On a fresh data folder: a demo business with a sandbox number and a receptionist assistant that
 * texts (`builtin.sms`, off by default) and a team address, so a booking call shows the caller's
 * confirmation text on the sandbox carrier and the team's email in the local SES.
 */
async function seedDemo(core: CoreDeps, assistants: AssistantService): Promise<void> {
  const admin = createAdminService(core, 'test');
  const demo = await admin.createBusiness('Demo Dental', 100);
  // An address, so `call-in --scenario text-me` ("Can you text me your address?") texts one.
  await admin.setProfile(demo.business_id, {
    display_name: 'Demo Dental',
    address: '1 Harbor Street, Springfield',
    team_emails: [DEMO_TEAM_EMAIL],
  });
  const receptionist = templateConfig('receptionist');
  const config = { ...receptionist, builtin: { ...(receptionist.builtin as object | undefined), sms: true } };
  const { assistant } = await assistants.create(demo.business_id, { name: 'Front desk', config });
  const number = await admin.addNumber(demo.business_id, {
    number: '+15550100001',
    provider: 'sandbox',
    assistantId: assistant.id,
    label: 'Demo line',
  });
  console.log('Seeded a demo business (shown once; keep the key):');
  console.log(JSON.stringify({ ...demo, assistant_id: assistant.id, phone_number_id: number.id }, null, 2));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error && error.message.startsWith('MEDIA_TASKS') ? error.message : error);
  process.exit(1);
});
