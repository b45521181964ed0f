import { describe, expect, it } from 'vitest';
import { compileArgumentsCheck, toolParametersProblem } from '../../../shared/tools/tool-schema';

/** `n` definitions, each an `anyOf` of two references to the next: 2^n paths for one failing value. */
function doublingChain(n: number): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) defs[`a${i}`] = { anyOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] };
  defs[`a${n}`] = { type: 'string' };
  return { type: 'object', $defs: defs, properties: { x: { $ref: '#/$defs/a0' } } };
}

describe('tool parameters and $ref', () => {
  it('refuses a chain of references that doubles at each step (exponential checking), at save and at call start', () => {
    const bomb = doublingChain(40);
    expect(JSON.stringify(bomb).length).toBeLessThan(4000);
    expect(toolParametersProblem(bomb)).toMatch(/written out in place come to more than 20000 schema nodes/);
    expect(() => compileArgumentsCheck(bomb)).toThrow(/refused/);
  });

  it('refuses a reference that leads back to itself', () => {
    expect(toolParametersProblem({ type: 'object', properties: { x: { $ref: '#' } } })).toMatch(/lead back/);
    const loop = {
      type: 'object',
      $defs: { a: { $ref: '#/$defs/b' }, b: { items: { $ref: '#/$defs/a' } } },
      properties: { x: { $ref: '#/$defs/a' } },
    };
    expect(toolParametersProblem(loop)).toMatch(/lead back/);
  });

  it('refuses dynamic references and anchors, and references outside the schema', () => {
    expect(toolParametersProblem({ type: 'object', $dynamicAnchor: 'n', properties: { x: { $dynamicRef: '#n' } } })).toMatch(/not allowed/);
    expect(
      toolParametersProblem({ type: 'object', $defs: { a: { $anchor: 'x', type: 'string' } }, properties: { x: { $ref: '#x' } } }),
    ).toMatch(/not allowed/);
    expect(toolParametersProblem({ type: 'object', properties: { x: { $ref: 'https://example.com/s.json' } } })).toMatch(/point inside/);
    expect(toolParametersProblem({ type: 'object', properties: { x: { $ref: '#/$defs/missing' } } })).toMatch(/point inside/);
  });

  it('keeps ordinary local references, shared definitions and escaped pointers', () => {
    const schema = {
      type: 'object',
      $defs: { 'day/part': { enum: ['am', 'pm'] }, phone: { type: 'string', pattern: '^\\+[0-9]{8,15}$' } },
      properties: { home: { $ref: '#/$defs/phone' }, work: { $ref: '#/$defs/phone' }, when: { $ref: '#/$defs/day~1part' } },
    };
    expect(toolParametersProblem(schema)).toBeNull();
    const check = compileArgumentsCheck(schema);
    expect(check({ home: '+14155550100', when: 'am' })).toBeNull();
    expect(check({ home: 'nope' })).toMatch(/home must match pattern/);
    expect(toolParametersProblem(doublingChain(10))).toBeNull();
  });

  it('refuses patterns whose RE2 programs are too large together, counting each $ref written out', () => {
    // Twenty of these on one 8,000-character argument held the event loop 7.6 s.
    const heavy = (n: number) => ({
      type: 'object',
      properties: { x: { type: 'string', allOf: Array.from({ length: n }, (_, i) => ({ pattern: `\\p{L}{1000}|${i}` })) } },
    });
    expect(toolParametersProblem(heavy(20))).toMatch(/patterns are too complex together/);
    expect(toolParametersProblem({ type: 'object', patternProperties: { '[a-z]{600}': {}, '[0-9]{600}': {} } })).toMatch(/too complex/);
    const viaRefs = {
      type: 'object',
      $defs: { p: { type: 'string', pattern: '[a-z]{300}' } },
      properties: { a: { $ref: '#/$defs/p' }, b: { $ref: '#/$defs/p' }, c: { $ref: '#/$defs/p' }, d: { $ref: '#/$defs/p' } },
    };
    expect(toolParametersProblem(viaRefs)).toMatch(/too complex/);
    expect(() => compileArgumentsCheck(heavy(20))).toThrow(/refused/);
  });

  it('keeps ordinary patterns: an email address, a phone number, a date, an order id together', () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', pattern: '^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,120}$' },
        phone: { type: 'string', pattern: '^\\+[1-9]\\d{1,14}$' },
        date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        order: { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$' },
      },
    };
    expect(toolParametersProblem(schema)).toBeNull();
    const started = performance.now();
    compileArgumentsCheck(schema)({ email: 'a'.repeat(8000) });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
