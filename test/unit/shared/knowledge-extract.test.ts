import { readFile } from 'node:fs/promises';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { htmlToText, pdfToText, readDocument } from '../../../shared/knowledge/extract';
import { textBombPdf } from '../../support/pdf-bombs';

describe('pdfToText', () => {
  it('reads a whole PDF as PDF.js gives it, pages apart', async () => {
    const bytes = await readFile(new URL('../../fixtures/knowledge/policies.pdf', import.meta.url));
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text: pages } = await extractText(pdf, { mergePages: false });
    await pdf.destroy();
    const whole = (pages as string[]).map((page) => page.trim()).join('\n\n');
    expect(whole.length).toBeGreaterThan(100);
    expect(await pdfToText(bytes)).toBe(whole);
  });

  it('stops a decompression bomb at the character budget instead of reading all of it', async () => {
    // 180 KB of PDF, 46 MB of content and 40 M characters of text: read whole it took 15 s.
    const bytes = textBombPdf(200_000);
    expect(bytes.length).toBeLessThan(250_000);
    const started = performance.now();
    const text = await pdfToText(bytes, 100_000);
    expect(text.length).toBe(100_000);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('stops at the time budget, and one cut document after another all come back', async () => {
    // PDF.js's destroy() of a document left mid-page sometimes never settles: each must still return.
    // (No wall-clock assertion: a busy machine stretches any; that each round comes back, cut, is the point.)
    for (let round = 0; round < 4; round++) {
      const text = await pdfToText(textBombPdf(200_000), 50_000_000, 300);
      expect(text.length).toBeLessThan(40_000_000);
    }
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
