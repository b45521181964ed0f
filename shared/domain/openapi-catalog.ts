import { cursorListParameters } from './openapi-paging';
import { INVALID, jsonResponse, op, responses, type Json } from './openapi-operations';

/**
 * The OpenAPI paths a business reads but does not create: its phone numbers (provisioned by ops),
 * its usage, and this document; functions only, called while the document is built.
 */

export function catalogPaths(): Json {
  return {
    '/phone-numbers': {
      get: {
        ...op(
          'listPhoneNumbers',
          'Phone numbers',
          "List the business's phone numbers, newest first, one page at a time.",
          responses(jsonResponse('One page of phone numbers.', 'PhoneNumberList'), INVALID),
        ),
        parameters: cursorListParameters(),
      },
    },
    '/usage': {
      get: op(
        'getUsage',
        'Usage',
        "The business's minutes (remaining and reserved by calls under way), calls holding a concurrency slot, the cap, and calls queued.",
        responses(jsonResponse('Usage now.', 'Usage')),
      ),
    },
    '/openapi.json': {
      get: {
        ...op('getOpenApiDocument', 'Meta', 'This document.', {
          '200': jsonResponse('The OpenAPI 3.1 document.', 'OpenApiDocument', ['X-API-Version', 'RateLimit-Policy']),
          // No key, so no per-key limit: only API Gateway's stage-wide throttle (infra/config.ts) can refuse it.
          '429': { description: "API Gateway's stage-wide throttle (a backstop for the whole API) refused the request; retry later." },
        }),
        security: [],
      },
    },
  };
}
