/** One passage of a document, with the heading it sits under. */
export interface Chunk {
  heading: string;
  text: string;
}

/** Chunk sizes in characters: a passage is a few paragraphs, short enough to speak from. */
export const CHUNK_CHARS = { target: 800, max: 1200, overlap: 150 } as const;

interface Section {
  heading: string;
  paragraphs: string[];
}

/**
 * A Markdown heading line's level and title, closing `#`s dropped ("## Hours ##" → 2, "Hours").
 * Read by hand, not by the regex it replaces (`/^(#{1,6})\s+(.+?)\s*#*\s*$/`): that one
 * backtracked over a long run of spaces, so a 2,000-character line ("# a", spaces, "x") took
 * 8.7 s and a 60,000-character text document would have held ingestion for hours. This is linear.
 */
function headingOf(line: string): { level: number; title: string } | undefined {
  const hashes = /^#{1,6}(?=\s)/.exec(line);
  if (!hashes) return undefined;
  const body = line.slice(hashes[0].length).trim();
  let end = body.length;
  while (end > 1 && body[end - 1] === '#') end--;
  return { level: hashes[0].length, title: body.slice(0, end).trim() };
}

/** Splits Markdown-ish text into sections by heading, each a list of paragraphs (blank-line separated). */
function sections(text: string): Section[] {
  const result: Section[] = [];
  const path: string[] = [];
  let current: Section = { heading: '', paragraphs: [] };
  let paragraph: string[] = [];
  const endParagraph = () => {
    const joined = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    if (joined !== '') current.paragraphs.push(joined);
    paragraph = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = headingOf(line);
    if (heading) {
      endParagraph();
      if (current.paragraphs.length > 0) result.push(current);
      const { level } = heading;
      path.length = Math.min(path.length, level - 1);
      path[level - 1] = heading.title;
      current = { heading: path.filter(Boolean).join(' > '), paragraphs: [] };
    } else if (line.trim() === '') endParagraph();
    else paragraph.push(line.trim());
  }
  endParagraph();
  if (current.paragraphs.length > 0) result.push(current);
  return result;
}

/** A paragraph longer than `max`, cut at sentence ends (or, failing that, at words). */
function pieces(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  const sentences = paragraph.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g) ?? [paragraph];
  const out: string[] = [];
  let piece = '';
  for (const sentence of sentences) {
    if (sentence.length > max) {
      if (piece.trim()) out.push(piece.trim());
      piece = '';
      for (let i = 0; i < sentence.length; i += max) out.push(sentence.slice(i, i + max).trim());
    } else if (piece.length + sentence.length > max) {
      out.push(piece.trim());
      piece = sentence;
    } else piece += sentence;
  }
  if (piece.trim()) out.push(piece.trim());
  return out.filter(Boolean);
}

/** The end of a passage carried into the next one: whole words, about `chars` long. */
function tail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(text.length - chars);
  const space = cut.indexOf(' ');
  return space === -1 ? cut : cut.slice(space + 1);
}

/**
 * Chunks by structure: sections by Markdown heading, paragraphs packed up to about
 * `CHUNK_CHARS.target` characters (never across a heading), long paragraphs cut at sentences, and
 * the end of each passage repeated at the start of the next in the same section (`overlap`), so an
 * answer that straddles two passages is whole in at least one. At most `limit` chunks.
 */
export function chunkText(text: string, limit = Number.POSITIVE_INFINITY): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections(text)) {
    let body = '';
    const flush = () => {
      if (body.trim() === '') return;
      chunks.push({ heading: section.heading, text: body.trim() });
      body = tail(body.trim(), CHUNK_CHARS.overlap);
    };
    let fresh = true;
    for (const paragraph of section.paragraphs.flatMap((p) => pieces(p, CHUNK_CHARS.max - CHUNK_CHARS.overlap))) {
      if (!fresh && body.length + paragraph.length + 1 > CHUNK_CHARS.target) flush();
      body = body === '' ? paragraph : `${body}\n${paragraph}`;
      fresh = false;
    }
    if (!fresh) flush();
    if (chunks.length >= limit) return chunks.slice(0, limit);
  }
  return chunks;
}

/** The text a chunk is embedded and keyword-indexed as: its heading, then its body. */
export function chunkSearchText(chunk: Chunk): string {
  return chunk.heading === '' ? chunk.text : `${chunk.heading}\n${chunk.text}`;
}
