import { describe, expect, it } from 'vitest';
import { asksForCustomTool, customToolArguments } from '../../../../media-service/src/sandbox/sandbox-custom-tools';

const LOOKUP = {
  name: 'lookup_order',
  description: "Looks up an order's status and delivery date by its order id.",
  parameters: {
    type: 'object',
    properties: {
      order_id: { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$' },
      express: { type: 'boolean' },
      notes: { type: 'string' },
    },
    required: ['order_id'],
  },
};

describe("the sandbox model's rule for a business's own tools", () => {
  it.each<[string, boolean]>([
    ['Please lookup order AB1234.', true],
    ['LOOKUP-ORDER now', true],
    ["What's the status and delivery date of my order?", true],
    ['I want to look up something.', false],
    ['What are your opening hours?', false],
  ])('"%s" asks for lookup_order: %s', (said, expected) => {
    // Act / Assert
    expect(asksForCustomTool(LOOKUP, said)).toBe(expected);
  });

  it('draws a patterned argument from what the caller said, and leaves out optional ones never mentioned', () => {
    // Act
    const args = customToolArguments(LOOKUP, 'Please lookup order AB1234, thanks.', 'Hi there.\nPlease lookup order AB1234, thanks.');
    // Assert
    expect(args).toMatchObject({ order_id: 'AB1234' });
    expect(args).not.toHaveProperty('notes');
  });
});
