import { describe, expect, it } from 'vitest';
import { defaultValue, fromText, getAt, mergePatch, setAt, toText } from '../../../console/src/forms/form-values';
import { describeFields, type LeafField, type OpenApiDoc } from '../../../console/src/forms/schema-fields';
import { buildOpenApiDocument } from '../../../shared/domain/openapi';

const base = { id: 'f-x', path: ['x'], label: 'X', hint: '', nullable: false, initial: undefined };
const number: LeafField = { ...base, kind: 'number', integer: false };
const integer: LeafField = { ...base, kind: 'number', integer: true };
const lines: LeafField = { ...base, kind: 'lines', integers: false };
const ids: LeafField = { ...base, kind: 'lines', integers: true };
const nullableIds: LeafField = { ...base, nullable: true, kind: 'lines', integers: true };
const json: LeafField = { ...base, kind: 'json' };
const secret: LeafField = { ...base, kind: 'secret' };
const optionalSelect: LeafField = { ...base, nullable: true, kind: 'select', options: ['a'] };

describe('getAt and setAt', () => {
  it('read and write at a path, making the objects on the way, without touching the original', () => {
    // Arrange
    const value = { config: { voice: { speed: 1 } } };

    // Act
    const next = setAt(value, ['config', 'model', 'temperature'], 0.2);

    // Assert
    expect(getAt(next, ['config', 'model', 'temperature'])).toBe(0.2);
    expect(getAt(next, ['config', 'voice', 'speed'])).toBe(1);
    expect(getAt(value, ['config', 'model'])).toBeUndefined();
    expect(getAt(value, ['config', 'voice', 'speed', 'deeper'])).toBeUndefined();
  });

  it('removes a member set to undefined', () => {
    expect(setAt({ model: { custom_key: 'k', model: 'm' } }, ['model', 'custom_key'], undefined)).toEqual({ model: { model: 'm' } });
  });
});

describe('fromText', () => {
  it.each([
    [number, '0.25', { ok: true, value: 0.25 }],
    [number, '', { ok: true, value: null }],
    [number, 'abc', { ok: false, message: 'Enter a number.' }],
    [integer, '1.5', { ok: false, message: 'Enter a whole number.' }],
    [integer, ' 600 ', { ok: true, value: 600 }],
    [lines, 'one\n\n two \r\nthree', { ok: true, value: ['one', 'two', 'three'] }],
    [lines, '', { ok: true, value: [] }],
    [ids, '3\n12\nabc', { ok: true, value: [3, 12, 'abc'] }],
    [nullableIds, '  ', { ok: true, value: null }],
    [json, '[{"word":"Nguyen","say":"win"}]', { ok: true, value: [{ word: 'Nguyen', say: 'win' }] }],
    [json, '{"a":', { ok: false, message: 'This is not valid JSON.' }],
    [secret, '', { ok: true, value: undefined }],
    [optionalSelect, '', { ok: true, value: null }],
  ])('%o reads %j as %o', (field, text, expected) => {
    expect(fromText(field, text)).toEqual(expected);
  });

  it('round-trips what toText shows', () => {
    expect(fromText(lines, toText(lines, ['a', 'b']))).toEqual({ ok: true, value: ['a', 'b'] });
    expect(fromText(json, toText(json, { city: 'Leeds' }))).toEqual({ ok: true, value: { city: 'Leeds' } });
    expect(toText(number, null)).toBe('');
  });
});

describe('mergePatch', () => {
  it.each([
    ['nothing changed', { a: 1, b: { c: [1] } }, { a: 1, b: { c: [1] } }, undefined],
    ['a nested member', { a: 1, b: { c: 2, d: 3 } }, { a: 1, b: { c: 5, d: 3 } }, { b: { c: 5 } }],
    ['a list, whole', { tags: ['a', 'b'] }, { tags: ['a'] }, { tags: ['a'] }],
    ['a number emptied: null restores the default', { n: 4 }, { n: null }, { n: null }],
    ['a removed member', { key: 'k', m: 1 }, { m: 1 }, { key: null }],
    ['a new member', { m: 1 }, { m: 1, custom_key: 's' }, { custom_key: 's' }],
    ['an optional group turned on', { setup: null }, { setup: {} }, { setup: {} }],
    ['an optional group turned off', { setup: { role: 'support' } }, { setup: null }, { setup: null }],
  ])('%s', (_name, before, after, expected) => {
    expect(mergePatch(before, after)).toEqual(expected);
  });
});

describe('defaultValue', () => {
  it('starts a new form at the schema defaults', () => {
    // Arrange
    const doc = buildOpenApiDocument() as unknown as OpenApiDoc;
    const nodes = describeFields(doc, { $ref: '#/components/schemas/SimpleSetupInput' }, ['config', 'setup']);

    // Act
    const value = defaultValue(nodes, { name: 'Front desk' });

    // Assert
    expect(value).toEqual({
      name: 'Front desk',
      config: { setup: { role: 'receptionist', name: '', tone: 'friendly', helps_with: '', always: '', never: '' } },
    });
  });
});
