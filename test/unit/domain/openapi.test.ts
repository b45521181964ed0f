import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { SERVER_EVENT_KINDS } from '../../../shared/domain/assistant-config';
import { buildOpenApiDocument } from '../../../shared/domain/openapi';
import { WEBHOOK_EVENT_TYPES } from '../../../shared/events/catalog';

type Json = Record<string, any>;

const doc = buildOpenApiDocument() as Json;
const schemas = doc.components.schemas as Record<string, Json>;

/** Every `$ref` string anywhere in `node`. */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refsIn(value)));
}

function resolve(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc);
}

/** Every endpoint of the spec: path, method and the schema of its 200 body. */
const ROUTES: [string, string, string][] = [
  ['/assistants', 'get', 'AssistantList'],
  ['/assistants', 'post', 'Assistant'],
  ['/assistants/{assistant_id}', 'get', 'Assistant'],
  ['/assistants/{assistant_id}', 'patch', 'Assistant'],
  ['/assistants/{assistant_id}', 'delete', 'DeleteResult'],
  ['/calls', 'get', 'CallsPage'],
  ['/calls', 'post', 'Call'],
  ['/calls/web', 'post', 'WebCall'],
  ['/calls/{call_id}', 'get', 'CallDetail'],
  ['/phone-numbers', 'get', 'PhoneNumberList'],
  ['/tools', 'get', 'ToolList'],
  ['/openapi.json', 'get', 'OpenApiDocument'],
];

describe('buildOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    // Arrange
    const validator = new Validator();

    // Act
    const result = await validator.validate(structuredClone(doc));

    // Assert
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
  });

  describe.each(ROUTES)('%s %s', (path, method, schema) => {
    it(`answers 200 with ${schema} and the version header`, () => {
      // Arrange / Act
      const ok = doc.paths[path]?.[method]?.responses?.['200'];

      // Assert
      expect(ok.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${schema}` });
      expect(ok.headers['X-API-Version']).toEqual({ $ref: '#/components/headers/X-API-Version' });
    });
  });

  describe.each(ROUTES.filter(([path]) => path !== '/openapi.json'))('%s %s', (path, method) => {
    it('needs the bearer key and lists 401 and 429', () => {
      // Arrange / Act
      const operation = doc.paths[path][method];

      // Assert
      expect(operation.security).toBeUndefined();
      expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
      expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    });
  });

  it('declares bearer auth globally and serves itself without it', () => {
    // Arrange / Act / Assert
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
  });

  it('has no dangling $ref', () => {
    // Arrange
    const refs = [...new Set(refsIn(doc))];

    // Act
    const dangling = refs.filter((ref) => resolve(ref) === undefined);

    // Assert
    expect(refs.length).toBeGreaterThan(20);
    expect(dangling).toEqual([]);
  });

  it('request bodies come from the valibot body schemas, bounds and defaults included', () => {
    // Arrange
    const create = doc.paths['/assistants'].post.requestBody.content['application/json'].schema;
    const config = schemas.AssistantConfigInput!;

    // Act / Assert
    expect(create).toEqual({ $ref: '#/components/schemas/CreateAssistantBody' });
    expect(schemas.CreateAssistantBody!.additionalProperties).toBe(false);
    expect(schemas.CreateAssistantBody!.properties.template.default).toBe('receptionist');
    expect(schemas.UpdateAssistantBody!.properties.name).toMatchObject({ minLength: 1, maxLength: 120 });
    expect(config.properties.tool_ids).toMatchObject({ type: 'array', maxItems: 64 });
    expect(config.properties.model).toEqual({ $ref: '#/components/schemas/ModelCfgInput', default: {} });
    expect(schemas.ModelCfgInput!.properties.custom_key).toMatchObject({ maxLength: 500, writeOnly: true });
    expect(schemas.AdvancedCfgInput!.properties.max_duration_s).toEqual({ type: 'integer', minimum: 30, maximum: 3600, default: 600 });
    expect(schemas.CreateCallBody!.required).toEqual(['assistant_id', 'to']);
    expect(schemas.CreateCallBody!.properties.to.pattern).toBe('^\\+[1-9]\\d{1,14}$');
  });

  it('responses mark every defaulted config field required and never show custom_key', () => {
    // Arrange
    const view = schemas.AssistantConfig!;
    const model = schemas.ModelCfg!;

    // Act / Assert
    expect(view.required).toEqual(Object.keys(view.properties));
    expect(model.required).toContain('custom_key_set');
    expect(model.properties.custom_key).toBeUndefined();
    expect(schemas.Assistant!.properties.config).toEqual({ $ref: '#/components/schemas/AssistantConfig' });
    expect(schemas.CallsPage!.required).toEqual(['data', 'limit', 'offset', 'has_more', 'next_cursor']);
    expect(schemas.DeleteResult!.properties.deleted).toEqual({ const: true });
  });

  it('documents the GET /calls query, the Idempotency-Key header and the error bodies', () => {
    // Arrange
    const list = doc.paths['/calls'].get;
    const create = doc.paths['/calls'].post;

    // Act / Assert
    expect(list.parameters.map((p: Json) => [p.name, p.in, p.schema.default])).toEqual([
      ['limit', 'query', 50],
      ['offset', 'query', 0],
      ['cursor', 'query', undefined],
      ['assistant_id', 'query', undefined],
      ['direction', 'query', undefined],
      ['channel', 'query', undefined],
      ['status', 'query', undefined],
      ['outcome', 'query', undefined],
      ['created_after', 'query', undefined],
      ['created_before', 'query', undefined],
    ]);
    expect(list.parameters[0].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200 });
    expect(list.parameters[1].schema).toMatchObject({ type: 'integer', minimum: 0 });
    // No cap on the offset but the bound every integer field has (a deep offset is served).
    expect(list.parameters[1].schema.maximum).toBe(Number.MAX_SAFE_INTEGER);
    expect(create.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]);
    expect(Object.keys(create.responses)).toEqual(['200', '401', '402', '404', '409', '413', '415', '422', '429', '500']);
    expect(doc.components.responses.Unauthorized.headers['WWW-Authenticate']).toEqual({ $ref: '#/components/headers/WWW-Authenticate' });
    expect(schemas.ErrorBody!.required).toEqual(['code', 'detail']);
    expect(schemas.HTTPValidationError!.properties.detail.items).toEqual({ $ref: '#/components/schemas/ValidationItem' });
    expect(doc.components.responses.RateLimited.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(Object.keys(doc.components.headers)).toEqual([
      'X-API-Version',
      'RateLimit-Policy',
      'RateLimit',
      'Retry-After',
      'ETag',
      'Cache-Control',
      'WWW-Authenticate',
    ]);
    // The web call's answer holds its token: documented as never cached.
    expect(doc.paths['/calls/web']!.post.responses['200'].headers['Cache-Control']).toEqual({ $ref: '#/components/headers/Cache-Control' });
  });

  it.each([
    ['/assistants', 'CreateConflict'],
    ['/calls', 'IdempotencyConflict'],
    ['/tools', 'CreateConflict'],
    ['/workflows', 'CreateConflict'],
    ['/knowledge-bases', 'CreateConflict'],
    ['/knowledge-bases/{knowledge_base_id}/documents', 'CreateConflict'],
  ])('documents Idempotency-Key and its 409 on POST %s (%s)', (path, conflict) => {
    // Arrange
    const create = doc.paths[path].post;
    // Assert
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    expect(create.responses['409']).toEqual({ $ref: `#/components/responses/${conflict}` });
    expect(doc.components.responses.CreateConflict.description).toMatch(/idempotency_conflict.*quota_exceeded/);
  });

  it('documents merge patch, ETag, If-Match and 412 on the assistant', () => {
    // Arrange
    const item = doc.paths['/assistants/{assistant_id}'];
    // Assert
    expect(Object.keys(item.patch.requestBody.content)).toEqual(['application/json', 'application/merge-patch+json']);
    for (const method of ['patch', 'delete']) {
      expect(item[method].parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header' }));
      expect(item[method].responses['412']).toEqual({ $ref: '#/components/responses/PreconditionFailed' });
    }
    for (const operation of [item.get, item.patch, doc.paths['/assistants'].post]) {
      expect(operation.responses['200'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    }
    expect(schemas.ErrorBody!.properties.code.enum).toContain('precondition_failed');
  });
});

/** Every object schema under `node`, with its JSON pointer. */
function objectSchemas(node: unknown, at: string): [string, Json][] {
  if (Array.isArray(node)) return node.flatMap((item, index) => objectSchemas(item, `${at}/${index}`));
  if (node === null || typeof node !== 'object') return [];
  const own: [string, Json][] = (node as Json).properties ? [[at, node as Json]] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => objectSchemas(value, `${at}/${key}`))];
}

const REQUEST_SCHEMAS = ['CreateAssistantBody', 'UpdateAssistantBody', 'CreateCallBody'];
/** The request components and every component they reach through `$ref`. */
function requestComponents(): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const ref of refsIn(schemas[name])) visit(ref.replace('#/components/schemas/', ''));
  };
  REQUEST_SCHEMAS.forEach(visit);
  return [...seen];
}

describe('buildOpenApiDocument: what generated clients see', () => {
  it('never lists a request field that has a default as required, at any depth', () => {
    // Arrange
    const names = requestComponents();
    const objects = names.flatMap((name) => objectSchemas(schemas[name], name));

    // Act
    const defaultedButRequired = objects.flatMap(([at, schema]) =>
      Object.entries(schema.properties as Record<string, Json>)
        .filter(([field, property]) => 'default' in property && (schema.required ?? []).includes(field))
        .map(([field]) => `${at}.${field}`),
    );
    const defaulted = objects.flatMap(([, schema]) =>
      Object.values(schema.properties as Record<string, Json>).filter((p) => 'default' in p),
    );

    // Assert
    expect(names).toEqual(expect.arrayContaining(['AssistantConfigInput', 'AdvancedCfgInput', 'ModelCfgInput']));
    expect(defaulted.length).toBeGreaterThan(50);
    expect(defaultedButRequired).toEqual([]);
    expect(schemas.CreateCallBody!.required).toEqual(['assistant_id', 'to']);
  });

  it('has a licence and a description for every tag, and every tag an operation uses is declared', () => {
    // Arrange
    const pathItems = [...Object.values(doc.paths), ...Object.values(doc.webhooks)] as Json[];
    const used = new Set(pathItems.flatMap((item) => Object.values(item).flatMap((operation: Json) => operation.tags ?? [])));

    // Act
    const declared = doc.tags.map((tag: Json) => tag.name);

    // Assert
    expect(doc.info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
    expect(doc.tags.every((tag: Json) => typeof tag.description === 'string' && tag.description.length > 10)).toBe(true);
    expect(declared.sort()).toEqual([...used].sort());
  });

  it('describes every webhook the service sends: body {type, timestamp, data: CallDetail} and the Standard Webhooks headers', () => {
    // Arrange
    const headers = doc.components.parameters as Record<string, Json>;

    // Act
    const kinds = Object.keys(doc.webhooks).filter((kind) => kind !== 'tool.call');

    // Assert
    expect(kinds).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(kinds).toEqual([...SERVER_EVENT_KINDS]);
    for (const kind of kinds) {
      const post = doc.webhooks[kind].post;
      const body = resolve(post.requestBody.content['application/json'].schema.$ref) as Json;
      expect(body).toMatchObject({ required: ['type', 'timestamp', 'data'], additionalProperties: false });
      expect(body.properties.type).toEqual({ const: kind });
      expect(body.properties.timestamp).toMatchObject({ type: 'string', format: 'date-time' });
      expect(body.properties.data).toEqual({ $ref: '#/components/schemas/CallDetail' });
      const names = post.parameters.map((parameter: Json) => resolve(parameter.$ref) as Json);
      expect(names.map((header: Json) => [header.name, header.in, header.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(Object.keys(post.responses).sort()).toEqual(['2XX', '410', 'default']);
    }
    expect(Object.keys(headers)).toEqual(['WebhookId', 'WebhookTimestamp', 'WebhookSignature', 'ToolCallId']);
  });

  it("describes the custom tool call the platform POSTs to a tool's server_url: body, signature headers, the answer it reads", () => {
    // Act
    const post = doc.webhooks['tool.call'].post;
    const body = resolve(post.requestBody.content['application/json'].schema.$ref) as Json;
    const headers = post.parameters.map((parameter: Json) => resolve(parameter.$ref) as Json);

    // Assert
    expect(body).toMatchObject({ required: ['type', 'timestamp', 'data'], additionalProperties: false });
    expect(body.properties.type).toEqual({ const: 'tool.call' });
    expect(body.properties.data.required).toEqual(['tool', 'arguments', 'call']);
    expect(body.properties.data.properties.call.required).toEqual(['id', 'assistant_id', 'direction', 'from_number', 'to_number']);
    expect(headers.map((header: Json) => header.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(Object.keys(post.responses['2XX'].content)).toEqual(['application/json', 'text/plain']);
  });
});
