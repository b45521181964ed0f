import { describe, expect, it } from 'vitest';
import {
  asksForCustomTool,
  customToolArguments,
  speakCustomResult,
  spokenExcerpt,
  SPOKEN_LINE_CHARS,
} from '../../../../media-service/src/sandbox/sandbox-custom-tools';

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

describe('spokenExcerpt', () => {
  it('keeps a short line whole, its spacing tidied', () => {
    expect(spokenExcerpt('  Your order   shipped.\nIt arrives Friday.  ', 300)).toBe('Your order shipped. It arrives Friday.');
  });

  it('keeps whole sentences up to the limit, a decimal point not ending one', () => {
    const text = `Your total is 45.00 USD. ${'It is paid. '.repeat(40)}`;
    const excerpt = spokenExcerpt(text, 59);
    expect(excerpt).toBe('Your total is 45.00 USD. It is paid. It is paid.');
  });

  it('cuts a first sentence longer than the limit at a word, with an ellipsis', () => {
    const excerpt = spokenExcerpt(`Order ${'details '.repeat(100)}end.`, 50);
    expect(excerpt).toBe('Order details details details details details…');
    expect(excerpt.length).toBeLessThanOrEqual(51);
  });
});

describe('speakCustomResult', () => {
  it('says at most 300 characters of a 4,000-character reply', () => {
    const spoken = speakCustomResult({ result: 'The warranty covers parts and labour. '.repeat(105) });
    expect(spoken.length).toBeLessThanOrEqual(SPOKEN_LINE_CHARS + ' Is there anything else I can help you with?'.length);
    expect(spoken).toMatch(/^The warranty covers parts and labour\. .*labour\. Is there anything else I can help you with\?$/);
  });
});

describe('spokenExcerpt on odd text', () => {
  it('never ends in half an emoji, says no control characters, and leaves blank fields out', () => {
    const excerpt = spokenExcerpt(`a${'😀'.repeat(400)}`, 300);
    expect(excerpt.isWellFormed()).toBe(true);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(spokenExcerpt('Open\u0000 today.', 300)).toBe('Open today.');
    expect(speakCustomResult({ result: '   ', status: 'shipped' })).toBe(
      'Here is what I found. status: shipped. Is there anything else I can help you with?',
    );
  });
});
