import { describe, expect, it } from 'vitest';
import { pdfToText } from '../../../shared/knowledge/extract';
import { textBombPdf } from '../../support/pdf-bombs';

/**
 * pdfToText's budgets against decompression bombs: seconds of CPU each, so they run with the
 * integration files, not in the unit loop (`npm run test:unit` stays a fast loop).
 */
describe('pdfToText against a decompression bomb', () => {
  it('stops a decompression bomb at the character budget instead of reading all of it', async () => {
    // 180 KB of PDF, 46 MB of content and 40 M characters of text: read whole it took 15 s.
    const bytes = textBombPdf(200_000);
    expect(bytes.length).toBeLessThan(250_000);
    // Only the character budget may stop it (a time budget of ten minutes): no wall-clock assertion.
    const { text, truncated, charsRead } = await pdfToText(bytes, 100_000, 600_000);
    expect(text.length).toBe(100_000);
    expect(truncated).toBe(true);
    expect(charsRead).toBeLessThan(1_000_000);
  });

  it('stops at the time budget, and one cut document after another all come back', async () => {
    // PDF.js's destroy() of a document left mid-page sometimes never settles: each must still return.
    // (No wall-clock assertion: a busy machine stretches any; that each round comes back, cut, is the point.)
    for (let round = 0; round < 4; round++) {
      const { text, truncated } = await pdfToText(textBombPdf(200_000), 50_000_000, 300);
      expect(text.length).toBeLessThan(40_000_000);
      expect(truncated).toBe(true);
    }
    // A bound on a hang, not a timing: four bombs take ~2 s on a quiet machine, 30 s or more on a starved one.
  }, 180_000);
});
