import { assistantPaths } from './openapi-assistants';
import { BOOKING_TAGS, bookingErrorResponses, bookingPaths } from './openapi-bookings';
import { callErrorResponses, callPaths, messagePaths } from './openapi-calls';
import { catalogPaths } from './openapi-catalog';
import { commonErrorResponses } from './openapi-errors';
import { HEADERS, OPENAPI_VERSION } from './openapi-headers';
import { KNOWLEDGE_TAGS, knowledgeErrorResponses, knowledgePaths } from './openapi-knowledge';
import type { Json } from './openapi-operations';
import { componentSchemas } from './openapi-schemas';
import { TOOL_CALL_PARAMETERS, TOOL_TAGS, toolErrorResponses, toolPaths, toolWebhooks } from './openapi-tools';
import { WEBHOOK_HEADER_PARAMETERS, webhookOperations } from './openapi-webhooks';
import { WORKFLOW_TAGS, workflowErrorResponses, workflowPaths } from './openapi-workflows';

/**
 * The OpenAPI document, assembled: each resource's paths, tags and errors sit in its own
 * `openapi-<resource>.ts`; the pieces they share in openapi-operations.ts (builders),
 * openapi-headers.ts, openapi-errors.ts and openapi-paging.ts; the schemas in openapi-schemas.ts.
 */

export { OPENAPI_VERSION };

/** Every tag the operations and webhooks use, with what it groups. */
const TAGS: Record<string, string> = {
  Assistants:
    "Voice agents: prompt, voice, model, tools, call handling and analysis. A business's first assistant answers inbound calls by default.",
  Calls:
    'Start outbound calls; read every call, inbound or outbound, with its transcript, analysis, metrics, recording and webhook deliveries.',
  'Phone numbers': "The business's numbers (provisioned by ops) and the assistant each one answers with.",
  Usage: "The plan's minutes and the business's call load, read now.",
  Messages: 'Messages callers left with an assistant, each linked to its call.',
  ...TOOL_TAGS,
  ...KNOWLEDGE_TAGS,
  ...WORKFLOW_TAGS,
  ...BOOKING_TAGS,
  Meta: 'This document.',
  Webhooks: "Signed events POSTed to an assistant's `advanced.server_url` for the kinds in `advanced.server_events`.",
};

/**
 * The OpenAPI 3.1 document served at `GET /api/v1/openapi.json`. Bodies, resources and errors
 * are generated from the same valibot schemas the API parses with, so the document cannot
 * drift from the validation (docs/design.md "Limits and versions": never hand-written).
 */
export function buildOpenApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice Agent API',
      version: OPENAPI_VERSION,
      description:
        "Build voice agents (assistants), run them on phone numbers, and read each call's transcript, analysis and metrics. " +
        'Conventions every operation shares: errors other than 422 are `ErrorBody` (`code` from one closed list); a path the API has, ' +
        'called with a method it does not take, is a 405 `method_not_allowed` whose `Allow` header lists the methods it takes (an unknown path is a 404); ' +
        'a body not sent as JSON (`application/json` or `application/*+json`) is a 415 `unsupported_media_type`.',
      // No open-source licence: the service is proprietary (docs/decisions.md "The OpenAPI document").
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: {
      ...assistantPaths(),
      ...callPaths(),
      ...messagePaths(),
      ...catalogPaths(),
      ...toolPaths(),
      ...knowledgePaths(),
      ...workflowPaths(),
      ...bookingPaths(),
    },
    webhooks: { ...webhookOperations(), ...toolWebhooks() },
    components: {
      schemas: componentSchemas(),
      responses: {
        ...commonErrorResponses(),
        ...callErrorResponses(),
        ...bookingErrorResponses(),
        ...toolErrorResponses(),
        ...knowledgeErrorResponses(),
        ...workflowErrorResponses(),
      },
      parameters: { ...WEBHOOK_HEADER_PARAMETERS, ...TOOL_CALL_PARAMETERS },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer vk_live_…` (or `vk_test_…`).' },
      },
    },
  };
}
