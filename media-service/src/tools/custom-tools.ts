import * as v from 'valibot';
import type { CallRecord } from '../../../shared/db/call-repository';
import type { Db } from '../../../shared/db/client';
import { ToolRepository, type ToolRecord } from '../../../shared/db/tool-repository';
import { isReservedToolName, TOOL_REPLY_LIMITS } from '../../../shared/domain/tool';
import type { ToolCallEvent } from '../../../shared/domain/tool-call-event';
import type { Logger } from '../../../shared/log';
import { guardedFetch, RequestTimeoutError } from '../../../shared/security/guarded-fetch';
import type { SecretBox } from '../../../shared/security/secret-box';
import { BlockedUrlError } from '../../../shared/security/ssrf';
import { webhookSecretContext } from '../../../shared/services/admin-service';
import { compileArgumentsCheck, type ArgumentsCheck } from '../../../shared/tools/tool-schema';
import { signWebhook } from '../../../shared/webhooks/signing';
import { WEBHOOK_USER_AGENT, type WebhookFetch } from '../../../shared/webhooks/send';
import { ToolFailureError, type RunnableTool, type ToolResult } from './tool-types';

/**
 * A business's custom tools on a call (docs/design.md "Custom tools"): the assistant's
 * `tool_ids` records, loaded once when the call starts, become {@link RunnableTool}s the runner
 * treats like the built-ins (timeout, filler, `actions`). Calling one is a signed POST to the
 * business's `server_url` through the one SSRF guard: the same Standard Webhooks signing as
 * webhooks, with the business's webhook secret, no redirects, the checked address pinned.
 */

/** The most reply characters the model gets; a longer reply is cut and the model told so. */
export const TOOL_REPLY_MAX_CHARS = TOOL_REPLY_LIMITS.chars;

/** Reply bytes read from the server (the rest is dropped and the connection closed). */
const TOOL_REPLY_MAX_BYTES = TOOL_REPLY_LIMITS.bytes;

/** What custom tools need from the process: built once by the composition root. */
export interface CustomToolBackend {
  /** The business's tools of these ids, as stored (one batch read). */
  load(businessId: number, toolIds: readonly number[]): Promise<ToolRecord[]>;
  /** The business's webhook signing secret (`whsec_…`), opened from its sealed form. */
  signingSecret(businessId: number, sealed: string): Promise<string>;
  /** `ALLOW_PRIVATE_URLS` (the local stack and tests); https is required when it is off. */
  allowPrivate: boolean;
  /** The HTTP client; `guardedFetch` unless a test injects one. */
  fetch?: WebhookFetch;
}

/** Compiled argument checks, by tool id and version: a call start reuses them (compiling costs ~1 ms a schema). */
const compiled = new Map<string, ArgumentsCheck>();
const MAX_COMPILED = 500;

function argumentsCheck(tool: ToolRecord): ArgumentsCheck {
  const key = `${tool.id}:${tool.updated_at ?? tool.created_at}`;
  let check = compiled.get(key);
  if (check === undefined) {
    check = compileArgumentsCheck(tool.parameters);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, check);
  }
  return check;
}

/** What each custom tool of one call shares: the call, the business's sealed secret, the back end. */
interface CallScope {
  call: CallRecord;
  sealedSecret: string;
  backend: CustomToolBackend;
  log: Logger;
}

/**
 * The assistant's custom tools for one call, in `tool_ids` order. A tool deleted since the
 * assistant was saved is simply absent; one whose stored schema no longer compiles is left out
 * with a warning (the model is never offered a tool whose arguments cannot be checked).
 */
export async function loadCustomTools(scope: CallScope, toolIds: readonly number[]): Promise<RunnableTool[]> {
  if (toolIds.length === 0) return [];
  const records = await scope.backend.load(scope.call.business_id, toolIds);
  let secret: Promise<string> | undefined;
  const signingSecret = () => (secret ??= scope.backend.signingSecret(scope.call.business_id, scope.sealedSecret));
  const tools: RunnableTool[] = [];
  for (const record of records) {
    // Saved before its name was reserved: offering it would give the model two tools of one name.
    if (isReservedToolName(record.name)) {
      scope.log.warn('call.tool.reserved_name', { call_id: scope.call.id, tool_id: record.id });
      continue;
    }
    try {
      tools.push(customTool(record, argumentsCheck(record), { ...scope, signingSecret }));
    } catch {
      scope.log.warn('call.tool.unusable', { call_id: scope.call.id, tool_id: record.id });
    }
  }
  return tools;
}

function customTool(
  record: ToolRecord,
  checkArgs: ArgumentsCheck,
  scope: CallScope & { signingSecret: () => Promise<string> },
): RunnableTool {
  const seconds = Math.round(record.timeout_ms / 100) / 10;
  let sent = 0;
  return {
    definition: { name: record.name, description: record.description, parameters: record.parameters },
    args: v.unknown(),
    checkArgs,
    timeoutMs: record.timeout_ms,
    // The request reached the business's server, which may still have done it: never say it did not.
    unavailable: `The business's system did not answer within ${seconds} seconds, so it is not known whether ${record.name} was done. Tell the caller you could not confirm it right now; do not say it was done or not done.`,
    ...(record.filler ? { filler: record.filler } : {}),
    async execute(args, context) {
      const { call } = scope;
      const event: ToolCallEvent = {
        type: 'tool.call',
        timestamp: new Date().toISOString(),
        data: {
          tool: { id: record.id, name: record.name },
          // An object: `checkArgs` held it to the tool's `parameters`, whose type is always `object`.
          arguments: args as Record<string, unknown>,
          call: {
            id: call.id,
            assistant_id: call.assistant_id,
            direction: call.direction,
            from_number: call.from_number,
            to_number: call.to_number,
          },
        },
      };
      sent += 1;
      return postToolCall(
        record,
        event,
        `tool_${call.id}_${record.id}_${sent}`,
        await scope.signingSecret(),
        scope.backend,
        context.signal,
      );
    },
  };
}

/** One signed POST and its reply as the model's result; failures become {@link ToolFailureError}s in plain words. */
async function postToolCall(
  record: ToolRecord,
  event: ToolCallEvent,
  webhookId: string,
  secret: string,
  backend: CustomToolBackend,
  signal: AbortSignal,
): Promise<ToolResult> {
  const body = JSON.stringify(event);
  const signature = signWebhook({ id: webhookId, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] });
  const headers = { 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, ...signature };
  const fetch = backend.fetch ?? guardedFetch;
  // The runner's timer (timeout_ms) answers the model; this budget only ends the request after it.
  const options = { allowPrivate: backend.allowPrivate, timeoutMs: record.timeout_ms + 1000, maxBodyBytes: TOOL_REPLY_MAX_BYTES };
  let response;
  try {
    response = await fetch(record.server_url, { method: 'POST', headers, body, signal }, options);
  } catch (error) {
    throw requestFailure(record.name, error, signal);
  }
  if (response.status < 200 || response.status > 299) {
    throw new ToolFailureError(
      `The business's system answered ${record.name} with an error (HTTP ${response.status}), so it did not work. Tell the caller you could not do that right now.`,
      `status_${response.status}`,
    );
  }
  return replyResult(response.status, response.bodyText, response.bodyTruncated || response.bodyText.length > TOOL_REPLY_MAX_CHARS);
}

function requestFailure(name: string, error: unknown, signal: AbortSignal): ToolFailureError {
  // The call ended (the caller hung up) while the request was out: not the business's system failing.
  if (signal.aborted) return new ToolFailureError(`The call ended before ${name} finished.`, 'call_ended');
  if (error instanceof RequestTimeoutError) {
    return new ToolFailureError(
      `The business's system did not answer ${name} in time. Tell the caller you could not do that right now.`,
      'timeout',
    );
  }
  const kind = error instanceof BlockedUrlError ? 'blocked' : 'unreachable';
  return new ToolFailureError(
    `The business's system for ${name} could not be reached. Tell the caller you could not do that right now.`,
    kind,
  );
}

/** C0 controls but tab and line breaks, and DEL. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * The reply as the model's result: a JSON object as it is, any other JSON or text under `result`;
 * past {@link TOOL_REPLY_MAX_CHARS} the text is cut and a `note` says so (cut JSON no longer
 * parses, so it goes as text). The `actions` summary is the reply's start.
 */
export function replyResult(status: number, reply: string, truncated: boolean): ToolResult {
  // Control characters (NUL, ESC sequences) mean nothing to the model and would land in `actions`.
  const text = reply.replace(CONTROL_CHARACTERS, '');
  const summary = `HTTP ${status}: ${text.slice(0, 200)}`;
  if (truncated) {
    const cut = text.slice(0, TOOL_REPLY_MAX_CHARS);
    return { output: { result: cut, note: `The reply was longer than ${TOOL_REPLY_MAX_CHARS} characters and was cut.` }, summary };
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  const output =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { result: parsed };
  return { output, summary };
}

/** The back end every composition builds the same way: tools from the table, the secret opened by the secret box. */
export function tableBackedCustomTools(db: Db, secretBox: SecretBox, allowPrivate: boolean): CustomToolBackend {
  const tools = new ToolRepository(db);
  return {
    load: (businessId, toolIds) => tools.getTools(businessId, toolIds),
    signingSecret: (businessId, sealed) => secretBox.open(sealed, webhookSecretContext(businessId)),
    allowPrivate,
  };
}
