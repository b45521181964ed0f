import { convert } from 'html-to-text';
import { getDocumentProxy } from 'unpdf';
import { KNOWLEDGE_LIMITS, type Chunk } from '../domain/knowledge';
import { chunkUpTo } from './chunker';
import type { DocumentKind } from './document-kind';

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/** The part of a parsed HTML node a table cell reads: its previous sibling (html-to-text's type leaves it out). */
interface Sibling {
  type: string;
  prev?: Sibling | null;
}

/**
 * A web page as clean text (html-to-text): navigation, scripts, styles, forms and images dropped,
 * links as their words only, and headings kept as Markdown `#` lines so the chunker sees the
 * page's structure. A table is a line per row with its cells joined by " | ": html-to-text's
 * column layout (`dataTable`) grows faster than the table (a 3 MB table took 12 s, a 5 MB one 84 s,
 * against 0.4 s this way), and a row per line is what the chunker and the search want anyway.
 */
export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    formatters: {
      markdownHeading(element, walk, builder, options) {
        const level = Number(String(element.name).slice(1)) || 2;
        builder.openBlock({ leadingLineBreaks: options.leadingLineBreaks ?? 2 });
        builder.addInline(`${'#'.repeat(level)} `);
        walk(element.children, builder);
        builder.closeBlock({ trailingLineBreaks: options.trailingLineBreaks ?? 2 });
      },
      tableRow(element, walk, builder) {
        builder.openBlock({ leadingLineBreaks: 1 });
        walk(element.children, builder);
        builder.closeBlock({ trailingLineBreaks: 1 });
      },
      tableCell(element, walk, builder) {
        // A separator before every cell but a row's first (whitespace between cells is a text node).
        let previous = (element as Sibling).prev;
        while (previous && previous.type === 'text') previous = previous.prev;
        if (previous) builder.addInline(' | ', { noWordTransform: true });
        walk(element.children, builder);
      },
    },
    selectors: [
      ...HEADINGS.map((tag) => ({ selector: tag, format: 'markdownHeading' })),
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'nav', format: 'skip' },
      { selector: 'header', format: 'skip' },
      { selector: 'footer', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'form', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'table', format: 'block' },
      { selector: 'tr', format: 'tableRow' },
      { selector: 'td', format: 'tableCell' },
      { selector: 'th', format: 'tableCell' },
    ],
  });
}

/**
 * How long reading one PDF's text may take before what was read so far is kept (the rest is cut).
 * Below the parse worker's hard deadline (`PARSE_LIMITS.deadlineMs`, 20 s), so a long PDF that
 * keeps yielding is cut and kept, and only a parse that never yields is killed and fails.
 */
export const PDF_READ_BUDGET_MS = KNOWLEDGE_LIMITS.pdfReadMs;

/** A document's text as read, and whether it was cut: reading stopped before its end, or it ran past a budget. */
export interface ReadText {
  text: string;
  truncated: boolean;
}

/**
 * A PDF's text (unpdf's serverless build of Mozilla's PDF.js), pages separated by blank lines.
 * Read page by page as a stream and stopped once more than `maxChars` are read or `budgetMs` has
 * passed (`truncated`): a small compressed PDF can hold millions of text operators (a
 * decompression bomb), and reading them all would hold the ingestion worker for minutes and fill
 * its memory.
 */
export async function pdfToText(
  bytes: Uint8Array,
  maxChars: number = KNOWLEDGE_LIMITS.extractedChars,
  budgetMs: number = PDF_READ_BUDGET_MS,
): Promise<ReadText & { charsRead: number }> {
  const deadline = performance.now() + budgetMs;
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const pages: string[] = [];
    let total = 0;
    let stopped = false;
    for (let n = 1; n <= pdf.numPages && !stopped; n++) {
      if (performance.now() >= deadline) {
        stopped = true;
        break;
      }
      const reader = (await pdf.getPage(n)).streamTextContent().getReader();
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const item of value.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
        // Past the budget (not at it: a text of exactly `maxChars` reads as whole; counted before page ends are
        // trimmed, so blanks there can make a text just under it read as cut), or out of time.
        stopped = total + text.length > maxChars || performance.now() >= deadline;
        if (stopped) break;
      }
      pages.push(text.trim());
      total += text.length;
    }
    const text = pages.join('\n\n');
    // charsRead: how much was read before stopping (a little past `maxChars` when the budget cut it).
    return { text: text.slice(0, maxChars), truncated: stopped || text.length > maxChars, charsRead: total };
  } finally {
    await destroyed(pdf);
  }
}

/**
 * Waits for PDF.js to let the document go, at most a second: destroying one whose text stream was
 * left mid-page terminates the parse (the CPU goes idle) but the promise sometimes never settles.
 */
async function destroyed(pdf: { destroy(): Promise<void> }): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    pdf.destroy().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 1000);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

/** A fetched document's text, whatever its kind (a PDF's read at most to `extractedChars`). */
export async function documentText(kind: DocumentKind, bytes: Uint8Array): Promise<ReadText> {
  if (kind === 'pdf') return pdfToText(bytes);
  const text = Buffer.from(bytes).toString('utf8');
  return { text: kind === 'html' ? htmlToText(text) : text, truncated: false };
}

/** A document's body as ingestion has it: fetched bytes of a kind, or a text document's source. */
export type DocumentSource = { kind: DocumentKind; bytes: Uint8Array } | { kind: 'text'; text: string };

/**
 * What a document reads as: its text's length (after the cut), its chunks, and whether only its
 * beginning is in them (`truncated`: its text passed `extractedChars`, its chunks passed
 * `chunksPerDocument`, or a PDF's reading was stopped at its time budget).
 */
export interface ParsedDocument {
  characters: number;
  chunks: Chunk[];
  truncated: boolean;
}

/**
 * The CPU- and memory-heavy part of ingestion, on input the business controls: a document's text
 * (extracted when fetched), cut at `KNOWLEDGE_LIMITS.extractedChars`, and its chunks, at most
 * `chunksPerDocument`. The parse worker runs this (worker-parser.ts), never the ingestion thread itself.
 */
export async function readDocument(source: DocumentSource): Promise<ParsedDocument> {
  const read: ReadText = 'text' in source ? { text: source.text, truncated: false } : await documentText(source.kind, source.bytes);
  // A lone surrogate (a PDF's broken ToUnicode map can make one) is not text that embeddings or
  // DynamoDB must accept: it becomes U+FFFD, as invalid UTF-8 in a page does.
  const kept = read.text.slice(0, KNOWLEDGE_LIMITS.extractedChars).toWellFormed();
  const { chunks, truncated } = chunkUpTo(kept, KNOWLEDGE_LIMITS.chunksPerDocument);
  return { characters: kept.length, chunks, truncated: read.truncated || read.text.length > kept.length || truncated };
}
