import { readFile } from 'node:fs/promises';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_LIMITS } from '../../../shared/domain/knowledge';
import { htmlToText, pdfToText, readDocument, type DocumentSource } from '../../../shared/knowledge/extract';

describe('pdfToText', () => {
  it('reads a whole PDF as PDF.js gives it, pages apart', async () => {
    const bytes = await readFile(new URL('../../fixtures/knowledge/policies.pdf', import.meta.url));
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text: pages } = await extractText(pdf, { mergePages: false });
    await pdf.destroy();
    const whole = (pages as string[]).map((page) => page.trim()).join('\n\n');
    expect(whole.length).toBeGreaterThan(100);
    expect(await pdfToText(bytes)).toMatchObject({ text: whole, truncated: false });
  });

  it('reads a PDF of exactly the character budget as whole, and one character more as cut', async () => {
    // Arrange: the fixture's own length as the budget
    const bytes = await readFile(new URL('../../fixtures/knowledge/policies.pdf', import.meta.url));
    const { text } = await pdfToText(bytes);
    // Act
    const [exact, under] = await Promise.all([pdfToText(bytes, text.length), pdfToText(bytes, text.length - 1)]);
    // Assert
    expect(exact).toMatchObject({ text, truncated: false });
    expect(under).toMatchObject({ text: text.slice(0, -1), truncated: true });
  });
});

describe('readDocument: truncated, when only the beginning is searchable', () => {
  const { chunksPerDocument, extractedChars } = KNOWLEDGE_LIMITS;
  /** `count` sections of one short passage each: a chunk apiece (a chunk never crosses a heading). */
  const sections = (count: number) => Array.from({ length: count }, (_, i) => `# S${i}\n\nFact ${i}.`).join('\n\n');
  /** `chars` characters of sentences in one paragraph (~630 chunks at 500,000: far under the chunk limit). */
  const prose = (chars: number) => 'We are open on Saturdays. '.repeat(Math.ceil(chars / 26)).slice(0, chars);
  const text = (body: string): DocumentSource => ({ kind: 'text', text: body });
  const html = (body: string): DocumentSource => ({ kind: 'html', bytes: Buffer.from(`<p>${body}</p>`) });

  it.each([
    ['at the chunk limit', text(sections(chunksPerDocument)), chunksPerDocument, false],
    ['one chunk past the chunk limit', text(sections(chunksPerDocument + 1)), chunksPerDocument, true],
    ['far past the chunk limit', text(sections(3 * chunksPerDocument)), chunksPerDocument, true],
    ['a short text', text('## Hours\n\nOpen 8 to 6.'), 1, false],
  ] as const)('%s: %i chunks kept, truncated %s', async (_label, source, chunks, truncated) => {
    // Act
    const parsed = await readDocument(source);
    // Assert
    expect(parsed.chunks).toHaveLength(chunks);
    expect(parsed.truncated).toBe(truncated);
  });

  it('keeps the first chunks in order when it cuts', async () => {
    // Act
    const parsed = await readDocument(text(sections(chunksPerDocument + 1)));
    // Assert
    expect(parsed.chunks.at(-1)).toEqual({ heading: `S${chunksPerDocument - 1}`, text: `Fact ${chunksPerDocument - 1}.` });
  });

  it.each([
    ['a text of exactly the character limit', text(prose(extractedChars)), false],
    ['a text one character past it', text(prose(extractedChars + 1)), true],
    ['a page whose text passes it', html(prose(extractedChars + 1000)), true],
  ] as const)('%s: %s', async (_label, source, truncated) => {
    // Act
    const parsed = await readDocument(source);
    // Assert
    expect(parsed.characters).toBe(extractedChars);
    expect(parsed.chunks.length).toBeLessThan(chunksPerDocument);
    expect(parsed.truncated).toBe(truncated);
  });
});

describe('htmlToText: tables', () => {
  it('writes a table as a line per row, cells joined by " | ", header row included', () => {
    // Arrange
    const html =
      '<h2>Prices</h2><table>\n<tr> <th>Service</th> <th>Price</th> </tr><tr><td>Cleaning</td><td>90 dollars</td></tr></table><p>Call us.</p>';
    // Act
    const text = htmlToText(html);
    // Assert
    expect(text).toBe('## Prices\n\nService | Price\nCleaning | 90 dollars\n\nCall us.');
  });

  it('keeps every row of a large table (60,000 rows, 3 MB), each on its own line', () => {
    // Arrange: the size at which the column layout took 12 s (it grows faster than the table)
    const rows = Array.from({ length: 60_000 }, (_, i) => `<tr><td>Item ${i}</td><td>${i * 3} dollars</td></tr>`);
    // Act
    const lines = htmlToText(`<table>${rows.join('')}</table>`).split('\n');
    // Assert
    expect(lines).toHaveLength(60_000);
    expect(lines[59_999]).toBe('Item 59999 | 179997 dollars');
  });
});

describe('readDocument', () => {
  it('turns a lone surrogate (as a broken PDF font map yields) into U+FFFD, so embeddings and DynamoDB get well-formed text', async () => {
    // Act
    const parsed = await readDocument({ kind: 'text', text: 'Opening hours \uD83D are nine to five.' });
    // Assert
    expect(parsed.chunks).toHaveLength(1);
    expect(parsed.chunks[0]!.text).toBe('Opening hours \uFFFD are nine to five.');
    expect(parsed.chunks[0]!.text.isWellFormed()).toBe(true);
  });
});
