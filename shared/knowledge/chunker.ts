import type { Chunk } from '../domain/knowledge';

/**
 * Chunk sizes in characters (UTF-16 code units): a passage is a few paragraphs, short enough to
 * speak from. `max` holds for every chunk's text, whatever the input (a paragraph of one giant
 * "word" is cut too).
 */
export const CHUNK_CHARS = { target: 800, max: 1200, overlap: 150 } as const;

/**
 * Heading sizes in characters: one title at most `title` (cut at a word, with "…"), the path
 * ("A > B > C") at most `path`. A heading repeats on every chunk of its section and is stored and
 * embedded with each, so a 50,000-character heading line must not reach them whole. With these, a
 * chunk's heading and text together are at most {@link CHUNK_SEARCH_CHARS}.
 */
export const HEADING_CHARS = { title: 150, path: 300 } as const;

/** The most characters of {@link chunkSearchText}: the heading path, a newline, the text (1,501). */
export const CHUNK_SEARCH_CHARS = HEADING_CHARS.path + 1 + CHUNK_CHARS.max;

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

/** The end of a cut made at `end`, moved back one so it never splits a surrogate pair (an emoji). */
function safeEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return end < text.length && code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** `text` cut to at most `max` characters: at the last space in its second half if there is one, with "…". */
function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = safeEnd(text, max - 1);
  const space = text.lastIndexOf(' ', room);
  const end = space > room / 2 ? space : room;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * The heading path of a section, within {@link HEADING_CHARS}: each title shortened, and when the
 * path is still too long the nearest titles kept (the section's own title first), the rest "…".
 */
function headingPath(titles: string[]): string {
  const kept = titles.filter(Boolean).map((title) => shortened(title, HEADING_CHARS.title));
  let path = kept.join(' > ');
  for (let first = 1; path.length > HEADING_CHARS.path && first < kept.length; first++) path = ['…', ...kept.slice(first)].join(' > ');
  return shortened(path, HEADING_CHARS.path);
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
      current = { heading: headingPath(path), paragraphs: [] };
    } else if (line.trim() === '') endParagraph();
    else paragraph.push(line.trim());
  }
  endParagraph();
  if (current.paragraphs.length > 0) result.push(current);
  return result;
}

/** A sentence longer than `max` in pieces of at most `max`: at spaces where it has them, else anywhere (one giant "word"). */
function hardCuts(sentence: string, max: number): string[] {
  const out: string[] = [];
  let rest = sentence.trim();
  while (rest.length > max) {
    const room = safeEnd(rest, max);
    const space = rest.lastIndexOf(' ', room);
    const end = space > room / 2 ? space : room;
    out.push(rest.slice(0, end).trim());
    rest = rest.slice(end).trim();
  }
  if (rest !== '') out.push(rest);
  return out;
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
      out.push(...hardCuts(sentence, max));
    } else if (piece.length + sentence.length > max) {
      out.push(piece.trim());
      piece = sentence;
    } else piece += sentence;
  }
  if (piece.trim()) out.push(piece.trim());
  return out.filter(Boolean);
}

/** The end of a passage carried into the next one: whole words, about `chars` long. */
function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function tail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  // Start after a surrogate pair, never inside one (an emoji's second half alone is no character).
  const start = text.length - chars;
  const cut = text.slice(isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start);
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
    // A piece leaves room for the overlap carried in front of it and the newline between them.
    for (const paragraph of section.paragraphs.flatMap((p) => pieces(p, CHUNK_CHARS.max - CHUNK_CHARS.overlap - 1))) {
      if (!fresh && body.length + paragraph.length + 1 > CHUNK_CHARS.target) flush();
      body = body === '' ? paragraph : `${body}\n${paragraph}`;
      fresh = false;
    }
    if (!fresh) flush();
    if (chunks.length >= limit) return chunks.slice(0, limit);
  }
  return chunks;
}

/**
 * At most `limit` chunks of `text`, and whether it had more (`truncated`): one more is asked of
 * {@link chunkText}, which stops at the section that reaches it, so the rest of a long text is
 * never chunked just to know.
 */
export function chunkUpTo(text: string, limit: number): { chunks: Chunk[]; truncated: boolean } {
  const chunks = chunkText(text, limit + 1);
  return { chunks: chunks.slice(0, limit), truncated: chunks.length > limit };
}

/** The text a chunk is embedded and keyword-indexed as: its heading, then its body. */
export function chunkSearchText(chunk: Chunk): string {
  return chunk.heading === '' ? chunk.text : `${chunk.heading}\n${chunk.text}`;
}
