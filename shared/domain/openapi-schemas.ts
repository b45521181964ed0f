import { toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import * as assistant from './assistant';
import * as cfg from './assistant-config';
import * as call from './call';
import * as callMetrics from './call-metrics';
import { API_ERROR_CODES } from './error-codes';
import { MessageSchema, MessagesPageSchema } from './message';
import { bookingRequestSchemas, bookingResponseSchemas } from './openapi-bookings';
import { webhookBodySchemas } from './openapi-webhooks';
import { PhoneNumberListSchema, PhoneNumberSchema } from './phone-number';
import { toolRequestSchemas, toolResponseSchemas } from './openapi-tools';
import { knowledgeRequestSchemas, knowledgeResponseSchemas } from './openapi-knowledge';
import { workflowRequestSchemas, workflowResponseSchemas } from './openapi-workflows';
import { ToolActionSchema } from './tool-action';
import { UsageSchema } from './usage';
import * as webCall from './web-call';
import * as liveCall from './live-call';
import { strictDict } from './validation';
import { HttpValidationErrorSchema, ValidationItemSchema } from './validation-errors';

type Json = Record<string, unknown>;

/** The body of every error but a 422 (docs/design.md "Errors"); `code` is one of {@link API_ERROR_CODES}. */
export const ErrorBodySchema = strictDict({ code: v.picklist(API_ERROR_CODES), detail: v.string() });

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // A `check` (a number's storable range near 0) has no JSON Schema form; the README states the rule.
  ignoreActions: ['check'],
  overrideRef: (context) => `#/components/schemas/${context.referenceId}`,
};

/** The config parts whose request and response forms differ only in what is required. */
const CONFIG_PARTS = {
  SimpleSetup: cfg.SimpleSetupSchema,
  TranscriberCfg: cfg.TranscriberCfgSchema,
  VoiceCfg: cfg.VoiceCfgSchema,
  Pronounce: cfg.PronounceSchema,
  BuiltinTools: cfg.BuiltinToolsSchema,
  AnalysisCfg: cfg.AnalysisCfgSchema,
  StructuredField: cfg.StructuredFieldSchema,
  AdvancedCfg: cfg.AdvancedCfgSchema,
};

/**
 * Request schemas, in input form. Config parts are suffixed `Input` because their response
 * form differs (defaults make every field required there, and `custom_key` is write-only).
 */
function requestSchemas(): Record<string, Json> {
  const parts = Object.entries(CONFIG_PARTS).map(([name, schema]) => [`${name}Input`, schema] as const);
  const defs = toJsonSchemaDefs(
    {
      CreateAssistantBody: assistant.CreateAssistantBodySchema,
      UpdateAssistantBody: assistant.UpdateAssistantBodySchema,
      CreateCallBody: call.CreateCallBodySchema,
      CreateWebCallBody: webCall.CreateWebCallBodySchema,
      ...bookingRequestSchemas(),
      ...toolRequestSchemas(),
      ...knowledgeRequestSchemas(),
      ...workflowRequestSchemas(),
      AssistantConfigInput: cfg.AssistantConfigSchema,
      ModelCfgInput: cfg.ModelCfgSchema,
      ...Object.fromEntries(parts),
    },
    { ...CONVERSION, typeMode: 'input' },
  );
  return defs as unknown as Record<string, Json>;
}

/** A response always carries a defaulted field, so it is required there and its default moot. */
function requireDefaulted(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(requireDefaulted);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = requireDefaulted(value);
  const properties = (node as Json).properties as Record<string, Json> | undefined;
  if ((node as Json).type === 'object' && properties) {
    const required = new Set((node as { required?: string[] }).required ?? []);
    const outProps = out.properties as Record<string, Json>;
    for (const [name, property] of Object.entries(properties)) {
      if (!('default' in property)) continue;
      required.add(name);
      delete outProps[name]!.default;
    }
    out.required = Object.keys(properties).filter((name) => required.has(name));
  }
  return out;
}

/** Response, error and webhook body schemas, in output form. */
function responseSchemas(): Record<string, Json> {
  const defs = toJsonSchemaDefs(
    {
      Assistant: assistant.AssistantSchema,
      AssistantConfig: cfg.AssistantConfigViewSchema,
      ModelCfg: cfg.ModelCfgViewSchema,
      ...CONFIG_PARTS,
      Call: call.CallSchema,
      CallAnalysis: call.CallAnalysisSchema,
      CallDetail: call.CallDetailSchema,
      TranscriptEntry: call.TranscriptEntrySchema,
      CallMetrics: callMetrics.CallMetricsSchema,
      TurnMetrics: callMetrics.TurnMetricsSchema,
      WebhookDelivery: call.WebhookDeliveryViewSchema,
      PhoneNumber: PhoneNumberSchema,
      AssistantList: assistant.AssistantListSchema,
      DeleteResult: assistant.DeleteAssistantResultSchema,
      CallsPage: call.CallsPageSchema,
      WebCall: webCall.WebCallSchema,
      CallListen: liveCall.CallListenSchema,
      CallEndRequest: liveCall.CallEndRequestSchema,
      PhoneNumberList: PhoneNumberListSchema,
      ...toolResponseSchemas(),
      ...knowledgeResponseSchemas(),
      ...workflowResponseSchemas(),
      Usage: UsageSchema,
      Message: MessageSchema,
      MessagesPage: MessagesPageSchema,
      ToolAction: ToolActionSchema,
      ...bookingResponseSchemas(),
      OpenApiDocument: v.record(v.string(), v.unknown()),
      ValidationItem: ValidationItemSchema,
      HTTPValidationError: HttpValidationErrorSchema,
      ErrorBody: ErrorBodySchema,
      ...webhookBodySchemas(),
    },
    { ...CONVERSION, typeMode: 'output' },
  );
  return requireDefaulted(defs) as Record<string, Json>;
}

/**
 * Every component schema of the OpenAPI document, converted from the valibot schemas the API
 * parses and answers with: request bodies in input form, responses and webhook bodies in output form.
 */
export function componentSchemas(): Record<string, Json> {
  return { ...requestSchemas(), ...responseSchemas() };
}
