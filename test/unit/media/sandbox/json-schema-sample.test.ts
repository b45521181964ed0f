import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { sampleJsonSchema } from '../../../../media-service/src/sandbox/json-schema-sample';

/** ajv (present through @seriousme/openapi-schema-validator) is the independent judge of validity. */
const ajv = new Ajv({ strict: false });
addFormats(ajv);

const happy = [
  'assistant: Thanks for calling Acme Dental.',
  'user: Hi, my name is Jane Doe, my email is jane@example.com and my phone is +1 555 010 0002.',
  'user: I would like a whitening on 2026-03-14, for 2 people. Thanks, that sounds great!',
].join('\n');
const unhappy = 'user: This is terrible, I am upset and want to cancel everything.\nassistant: I am sorry to hear that.';

describe('sampleJsonSchema', () => {
  it.each([
    { name: 'score_10', schema: { type: 'integer', minimum: 1, maximum: 10 } },
    { name: 'pass_fail enum', schema: { type: 'string', enum: ['pass', 'fail'] } },
    { name: 'descriptive text', schema: { type: 'string', minLength: 5, maxLength: 80 } },
    { name: 'nullable date', schema: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] } },
    { name: 'type list', schema: { type: ['number', 'null'], minimum: 0 } },
    { name: 'array', schema: { type: 'array', items: { type: 'string' }, minItems: 2 } },
    { name: 'const', schema: { const: 'v1' } },
    {
      name: '$ref and $defs',
      schema: {
        type: 'object',
        properties: { who: { $ref: '#/$defs/person' } },
        required: ['who'],
        $defs: { person: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      },
    },
    {
      name: 'strict analysis object',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['summary', 'success_evaluation', 'structured_data'],
        properties: {
          summary: { type: 'string' },
          success_evaluation: { type: 'string', enum: ['pass', 'fail'] },
          structured_data: {
            type: 'object',
            additionalProperties: false,
            required: ['email', 'wants_callback', 'service', 'visit_date'],
            properties: {
              email: { type: ['string', 'null'] },
              wants_callback: { type: ['boolean', 'null'] },
              service: { anyOf: [{ type: 'string', enum: ['cleaning', 'whitening'] }, { type: 'null' }] },
              visit_date: { type: ['string', 'null'], format: 'date' },
            },
          },
        },
      },
    },
  ])('$name: validates for a happy and an unhappy conversation', ({ schema }) => {
    for (const conversation of [happy, unhappy, '']) {
      // Act
      const value = sampleJsonSchema(schema, conversation);
      // Assert
      expect(ajv.validate(schema, value), `${JSON.stringify(value)}: ${JSON.stringify(ajv.errors)}`).toBe(true);
    }
  });

  it('draws structured values from the conversation and null when absent', () => {
    // Arrange
    const field = (type: unknown) => ({ anyOf: [type, { type: 'null' }] });
    const schema = {
      type: 'object',
      properties: {
        caller_name: field({ type: 'string' }),
        email: field({ type: 'string' }),
        phone: field({ type: 'string' }),
        visit_date: field({ type: 'string', format: 'date' }),
        people: field({ type: 'number' }),
        service: field({ type: 'string', enum: ['cleaning', 'whitening'] }),
        insurance_provider: field({ type: 'string' }),
      },
    };
    // Act
    const value = sampleJsonSchema(schema, happy);
    // Assert
    expect(value).toEqual({
      caller_name: 'Jane Doe',
      email: 'jane@example.com',
      phone: '+1 555 010 0002',
      visit_date: '2026-03-14',
      people: 2,
      service: 'whitening',
      insurance_provider: null,
    });
  });

  it.each([
    { conversation: happy, score: 8, verdict: 'pass' },
    { conversation: unhappy, score: 4, verdict: 'fail' },
  ])('judges success from the tone: score $score, $verdict', ({ conversation, score, verdict }) => {
    expect(sampleJsonSchema({ type: 'integer', minimum: 1, maximum: 10, title: 'score' }, conversation)).toBeTypeOf('number');
    expect(
      sampleJsonSchema({ type: 'object', properties: { success_score: { type: 'integer', minimum: 1, maximum: 10 } } }, conversation),
    ).toEqual({ success_score: score });
    expect(sampleJsonSchema({ type: 'string', enum: ['pass', 'fail'] }, conversation)).toBe(verdict);
  });

  it('writes a summary quoting the conversation', () => {
    // Act
    const value = sampleJsonSchema({ type: 'object', properties: { summary: { type: 'string' } } }, happy) as { summary: string };
    // Assert
    expect(value.summary).toContain('Thanks for calling Acme Dental.');
    expect(value.summary).toContain('positive');
  });
});
