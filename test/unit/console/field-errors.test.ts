import { describe, expect, it } from 'vitest';
import { placeErrors } from '../../../console/src/forms/field-errors';
import { describeFields, type OpenApiDoc } from '../../../console/src/forms/schema-fields';
import { buildOpenApiDocument } from '../../../shared/domain/openapi';

const doc = buildOpenApiDocument() as unknown as OpenApiDoc;
const nodes = describeFields(doc, { $ref: '#/components/schemas/UpdateAssistantBody' });

describe('placeErrors', () => {
  it('puts each 422 item at its field and lists it in the summary under the field label', () => {
    // Arrange
    const items = [
      { loc: ['body', 'config', 'voice', 'speed'], msg: 'Must be at most 1.2' },
      { loc: ['body', 'name'], msg: 'Must be at least 1 character' },
    ];

    // Act
    const placed = placeErrors(items, nodes);

    // Assert
    expect(placed.byField.get('f-config-voice-speed')).toBe('Must be at most 1.2');
    expect(placed.byField.get('f-name')).toBe('Must be at least 1 character');
    expect(placed.summary).toEqual([
      { fieldId: 'f-config-voice-speed', label: 'Config › Voice › Speed', message: 'Must be at most 1.2' },
      { fieldId: 'f-name', label: 'Name', message: 'Must be at least 1 character' },
    ]);
  });

  it('says where inside a field a message belongs, and joins several for one field', () => {
    // Act
    const placed = placeErrors(
      [
        { loc: ['body', 'config', 'voice', 'pronunciations', 2, 'word'], msg: 'Field required' },
        { loc: ['body', 'config', 'voice', 'pronunciations', 3, 'say'], msg: 'Too long' },
      ],
      nodes,
    );

    // Assert
    expect(placed.byField.get('f-config-voice-pronunciations')).toBe('2 › word: Field required 3 › say: Too long');
    expect(placed.summary[0]).toEqual({
      fieldId: 'f-config-voice-pronunciations',
      label: 'Config › Voice › Pronunciations',
      message: '2 › word: Field required',
    });
  });

  it('keeps an item no field shows in the summary, named by its loc', () => {
    const placed = placeErrors(
      [
        { loc: ['body', 'template'], msg: 'Invalid' },
        { loc: ['body'], msg: 'Bad body' },
      ],
      nodes,
    );
    expect(placed.byField.size).toBe(0);
    expect(placed.summary).toEqual([
      { fieldId: undefined, label: 'template', message: 'Invalid' },
      { fieldId: undefined, label: 'The request', message: 'Bad body' },
    ]);
  });
});
