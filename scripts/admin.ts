import { parseArgs } from 'node:util';
import { createAdminService, createCoreDeps } from '../functions/lib/deps';
import { ApiConfigSchema } from '../functions/lib/config';
import { readConfig } from '../shared/config';
import { AdminService } from '../shared/services/admin-service';
import { AppError, ValidationError } from '../shared/errors';
import { readStackInfo } from './local/infra';
import { localApiConfig } from './local/config';
import { stageResourceNames } from '../infra/names';
import { E164_PATTERN } from '../shared/domain/phone-number';
import { parseWeeklyHours } from '../shared/domain/opening-hours';
import { QUOTA_NAMES, type Quotas } from '../shared/domain/quota';
import { SANDBOX_ACCOUNT_SID } from '../media-service/src/sandbox/carrier';
import { SANDBOX_SCENARIO_NAMES, type SandboxScenarioName } from '../media-service/src/sandbox/scenarios';

const USAGE = `usage: npm run -s admin -- <command> [options] [--stage NAME]
  create-business --name NAME [--minutes M]
  create-key --business N
  revoke-key --business N --key-prefix PREFIX
  add-number --business N --number +E164 [--provider sandbox|twilio] [--assistant ID] [--label L]
  add-tool --business N --name NAME --description D --server-url URL [--parameters JSON] [--timeout-ms MS] [--filler TEXT]
  set-minutes --business N --minutes M
  set-max-concurrent-calls --business N --max M
  set-quota --business N [--assistants A] [--workflows W] [--tools T] [--knowledge-bases K] [--documents D] [--phone-numbers P]
              (documents: per knowledge base; each 0 to 1000; the rest keep theirs)
  deliveries --business N [--call ID]
  set-profile --business N [--display-name ..] [--timezone IANA] [--hours "Mon-Fri 09:00-17:00; Sat 10:00-14:00"]
              [--closed-dates 2026-12-25,2026-12-26] [--address ..] [--transfer-number +1..] [--team-email a@x,b@y]
              [--team-phone +1..,+1..] [--sms-regions US,CA] [--json '{...PATCH /business body...}']
  call-in --to +E164 [--from +E164] [--scenario ${SANDBOX_SCENARIO_NAMES.join('|')}]   (local stack only)`;

const options = {
  stage: { type: 'string' },
  name: { type: 'string' },
  minutes: { type: 'string' },
  business: { type: 'string' },
  'key-prefix': { type: 'string' },
  number: { type: 'string' },
  provider: { type: 'string' },
  assistant: { type: 'string' },
  label: { type: 'string' },
  description: { type: 'string' },
  'server-url': { type: 'string' },
  parameters: { type: 'string' },
  'timeout-ms': { type: 'string' },
  filler: { type: 'string' },
  max: { type: 'string' },
  assistants: { type: 'string' },
  workflows: { type: 'string' },
  tools: { type: 'string' },
  'knowledge-bases': { type: 'string' },
  documents: { type: 'string' },
  'phone-numbers': { type: 'string' },
  call: { type: 'string' },
  'display-name': { type: 'string' },
  timezone: { type: 'string' },
  hours: { type: 'string' },
  address: { type: 'string' },
  'transfer-number': { type: 'string' },
  'team-email': { type: 'string' },
  'team-phone': { type: 'string' },
  'sms-regions': { type: 'string' },
  'closed-dates': { type: 'string' },
  json: { type: 'string' },
  to: { type: 'string' },
  from: { type: 'string' },
  scenario: { type: 'string' },
} as const;

type Args = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function int(value: string | undefined, flag: string): number {
  if (value === undefined || !/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number.`);
  return Number(value);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`--${flag} is required.`);
  return value;
}

class UsageError extends Error {}

/** Builds the admin service against the local stack, or a deployed stage with --stage. */
function service(stage: string | undefined): AdminService {
  const config = stage
    ? readConfig(ApiConfigSchema, { ...process.env, ...stageResourceNames(stage), OUTBOUND_QUEUE_URL: 'unused-by-admin' })
    : localApiConfig(readStackInfo());
  const core = createCoreDeps(config);
  return createAdminService(core, stage ? 'live' : 'test');
}

const COMMANDS = [
  'create-business',
  'create-key',
  'revoke-key',
  'add-number',
  'add-tool',
  'set-minutes',
  'set-max-concurrent-calls',
  'set-quota',
  'set-profile',
  'deliveries',
  'call-in',
];

async function run(command: string | undefined, args: Args): Promise<unknown> {
  if (!command || !COMMANDS.includes(command)) throw new UsageError(command ? `Unknown command ${command}.` : 'No command given.');
  if (command === 'call-in') return callIn(args);
  const admin = service(args.stage);
  switch (command) {
    case 'create-business':
      return admin.createBusiness(required(args.name, 'name'), args.minutes === undefined ? undefined : int(args.minutes, 'minutes'));
    case 'create-key':
      return admin.createKey(int(args.business, 'business'));
    case 'revoke-key':
      return admin.revokeKey(int(args.business, 'business'), required(args['key-prefix'], 'key-prefix'));
    case 'add-number': {
      const provider = args.provider ?? (args.stage ? 'twilio' : 'sandbox');
      if (provider !== 'sandbox' && provider !== 'twilio') throw new UsageError('--provider must be sandbox or twilio.');
      return admin.addNumber(int(args.business, 'business'), {
        number: required(args.number, 'number'),
        provider,
        assistantId: args.assistant === undefined ? null : int(args.assistant, 'assistant'),
        label: args.label ?? '',
      });
    }
    case 'add-tool':
      return admin.addTool(int(args.business, 'business'), toolInput(args));
    case 'set-minutes':
      return admin.setMinutes(int(args.business, 'business'), int(args.minutes, 'minutes'));
    case 'set-max-concurrent-calls':
      return admin.setMaxConcurrentCalls(int(args.business, 'business'), int(args.max, 'max'));
    case 'set-quota':
      return admin.setQuota(int(args.business, 'business'), quotaInput(args));
    case 'deliveries':
      return admin.deliveries(int(args.business, 'business'), args.call === undefined ? null : int(args.call, 'call'));
    case 'set-profile':
      return admin.setProfile(int(args.business, 'business'), profileInput(args));
    default:
      throw new UsageError(command ? `Unknown command ${command}.` : 'No command given.');
  }
}

function e164(value: string, flag: string): string {
  if (!E164_PATTERN.test(value)) throw new UsageError(`--${flag} must be an E.164 number like +15550100001.`);
  return value;
}

/** `call-in` flags → the sandbox carrier's `POST /sandbox/inbound-calls` body. */
function callInBody(args: Args): { to: string; from?: string; scenario?: SandboxScenarioName } {
  if (args.stage)
    throw new UsageError(
      'call-in only rings the local sandbox carrier (npm run dev); on a deployed stage, call the Twilio number from a phone.',
    );
  const scenario = args.scenario;
  if (scenario !== undefined && !(SANDBOX_SCENARIO_NAMES as string[]).includes(scenario)) {
    throw new UsageError(`--scenario must be one of ${SANDBOX_SCENARIO_NAMES.join(', ')}.`);
  }
  return {
    to: e164(required(args.to, 'to'), 'to'),
    ...(args.from !== undefined && { from: e164(args.from, 'from') }),
    ...(scenario !== undefined && { scenario: scenario as SandboxScenarioName }),
  };
}

/** A simulated person calls one of our numbers through the running stack's sandbox carrier. */
async function callIn(args: Args): Promise<unknown> {
  const body = callInBody(args);
  const stackInfo = readStackInfo();
  const { carrierUrl, sandboxAuthToken } = stackInfo;
  if (!carrierUrl || !sandboxAuthToken)
    throw new Error('The local stack recorded no sandbox carrier (started by an older npm run dev?): restart npm run dev.');
  // The carrier would ring it anyway and the caller hear "we cannot take your call", with no call record.
  if (!(await createCoreDeps(localApiConfig(stackInfo)).catalog.lookupNumber(body.to)))
    throw new Error(`${body.to} is none of this stack's numbers: add it with add-number, or call the demo number +15550100001.`);
  const response = await fetch(`${carrierUrl}/sandbox/inbound-calls`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${SANDBOX_ACCOUNT_SID}:${sandboxAuthToken}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  }).catch(() => {
    throw new Error(`No sandbox carrier answers at ${carrierUrl}: is npm run dev running?`);
  });
  const answer = (await response.json()) as { call_sid?: string; message?: string };
  if (response.status !== 201)
    throw new Error(`The sandbox carrier refused the call (${response.status}): ${answer.message ?? 'no detail'}`);
  return { call_sid: answer.call_sid };
}

/** The add-tool flags as a POST /tools body; the tool service checks it (422-style items on error). */
function toolInput(args: Args): Record<string, unknown> {
  let parameters: unknown;
  if (args.parameters !== undefined) {
    try {
      parameters = JSON.parse(args.parameters);
    } catch {
      throw new UsageError('--parameters must be a JSON Schema object.');
    }
  }
  const fields = {
    name: required(args.name, 'name'),
    description: required(args.description, 'description'),
    server_url: required(args['server-url'], 'server-url'),
    parameters,
    timeout_ms: args['timeout-ms'] === undefined ? undefined : int(args['timeout-ms'], 'timeout-ms'),
    filler: args.filler,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The set-quota flags given, by quota name (`--knowledge-bases` sets `knowledge_bases`). */
function quotaInput(args: Args): Partial<Quotas> {
  const changes: Partial<Quotas> = {};
  for (const name of QUOTA_NAMES) {
    const flag = name.replace('_', '-') as keyof Args;
    const value = args[flag];
    if (typeof value === 'string') changes[name] = int(value, flag);
  }
  return changes;
}

/** The set-profile flags as a PATCH /business body (`--json` first, the flags over it). */
function profileInput(args: Args): Record<string, unknown> {
  const list = (value: string | undefined) =>
    value
      ?.split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  let hours: unknown;
  if (args.hours !== undefined) {
    hours = parseWeeklyHours(args.hours);
    if (typeof hours === 'string') throw new UsageError(`--hours: ${hours}.`);
  }
  let base: Record<string, unknown> = {};
  if (args.json !== undefined) {
    try {
      base = JSON.parse(args.json) as Record<string, unknown>;
    } catch {
      throw new UsageError('--json must be a JSON object.');
    }
  }
  const fields = {
    display_name: args['display-name'],
    timezone: args.timezone,
    hours,
    closed_dates: list(args['closed-dates']),
    address: args.address,
    transfer_number: args['transfer-number'],
    team_emails: list(args['team-email']),
    team_phones: list(args['team-phone']),
    sms_regions: list(args['sms-regions']),
  };
  return { ...base, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ options, allowPositionals: true, strict: true });
  } catch (error) {
    console.log(JSON.stringify({ error: 'usage', detail: (error as Error).message, usage: USAGE }));
    process.exit(2);
  }
  try {
    const result = await run(parsed.positionals[0], parsed.values);
    console.log(JSON.stringify(result));
    process.exit(0);
  } catch (error) {
    if (error instanceof UsageError) {
      console.log(JSON.stringify({ error: 'usage', detail: error.message, usage: USAGE }));
      process.exit(2);
    }
    const code = error instanceof AppError ? error.code : 'failed';
    const detail = error instanceof ValidationError ? error.items : error instanceof Error ? error.message : String(error);
    console.log(JSON.stringify({ error: code, detail }));
    process.exit(1);
  }
}

void main();
