import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../shared/domain/openapi';

type Json = Record<string, unknown>;

/**
 * Closes every object schema that lists its properties (`additionalProperties: false`), so a
 * response field the document does not describe fails validation. Dictionaries (no `properties`,
 * a value schema) stay open: their keys are data.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Json = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  if (copy.properties !== undefined && copy.additionalProperties !== false && typeof copy.additionalProperties !== 'object') {
    copy.additionalProperties = false;
  }
  return copy;
}

/**
 * The OpenAPI document in strict mode: every object that lists its properties is closed, so a
 * validator or a generated client type refuses any field the document does not describe.
 */
export function strictOpenApiDocument(document: Json = buildOpenApiDocument()): Json {
  return closed(document) as Json;
}

/**
 * Validates a response body against a component schema of the OpenAPI document in strict mode:
 * returns the errors (empty when it conforms), so tests show what drifted.
 *
 * @example
 * expect(strictResponseErrors('CallDetail', await response.json())).toEqual([]);
 */
export function strictResponseErrors(component: string, body: unknown): string[] {
  const validate = strictValidator(component);
  return validate(body)
    ? []
    : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
}

/** One validator per component, compiled once per test file (a fuzz run checks thousands of bodies). */
const validators = new Map<string, ValidateFunction>();
let strictAjv: Ajv2020 | undefined;

function strictValidator(component: string): ValidateFunction {
  let validate = validators.get(component);
  if (validate) return validate;
  const document = strictOpenApiDocument() as { components: { schemas: Json } };
  if (!(component in document.components.schemas)) throw new Error(`no component schema ${component}`);
  if (!strictAjv) {
    strictAjv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(strictAjv);
    strictAjv.addSchema({ $id: 'openapi', components: document.components });
  }
  validate = strictAjv.compile({ $ref: `openapi#/components/schemas/${component}` });
  validators.set(component, validate);
  return validate;
}
