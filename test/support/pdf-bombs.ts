import { deflateSync } from 'node:zlib';

/** A one-page PDF whose FlateDecode content stream is `content` (a decompression bomb when large). */
function onePagePdf(content: Buffer): Uint8Array {
  const stream = deflateSync(content, { level: 9 });
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (part: Buffer) => {
    offsets.push(length);
    parts.push(part);
    length += part.length;
  };
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  ];
  objects.forEach((body, i) => add(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1')));
  add(
    Buffer.concat([
      Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      stream,
      Buffer.from('\nendstream\nendobj\n', 'latin1'),
    ]),
  );
  add(Buffer.from('5 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n', 'latin1'));
  const xref = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(`xref\n0 6\n0000000000 65535 f \n${xref}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'),
  );
  return Buffer.concat(parts);
}

/** A one-page PDF showing `lines` lines of 200 characters: 200,000 lines are 180 KB of PDF, 40 M characters of text. */
export function textBombPdf(lines: number): Uint8Array {
  return onePagePdf(Buffer.from(`BT /F1 12 Tf 72 712 Td (${'A'.repeat(200)}) Tj ET\n`.repeat(lines)));
}

/**
 * A one-page PDF whose content is `megabytes` MB of blank space: no text, so no character budget
 * stops it, and PDF.js keeps the whole inflated stream in buffers outside the JS heap (100 MB is
 * a 0.2 MB PDF).
 */
export function blankBombPdf(megabytes: number): Uint8Array {
  return onePagePdf(Buffer.alloc(megabytes * 1024 * 1024, ' '));
}
