import { convert } from 'html-to-text';
import { extractText, getDocumentProxy } from 'unpdf';

/** The kinds of document a URL may hold. */
export type DocumentKind = 'html' | 'pdf' | 'text';

/** The fetched body was not a kind we read. */
export class UnsupportedDocumentError extends Error {}

/** What a fetched body is, by its Content-Type, else by its first bytes. */
export function documentKind(contentType: string, bytes: Uint8Array): DocumentKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf' || Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-') return 'pdf';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/plain' || type === 'text/markdown' || type === '') {
    const head = Buffer.from(bytes.subarray(0, 512)).toString('utf8').trimStart().toLowerCase();
    return head.startsWith('<!doctype html') || head.startsWith('<html') ? 'html' : 'text';
  }
  throw new UnsupportedDocumentError(`content type ${type.slice(0, 80)} is not HTML, PDF or plain text`);
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/**
 * A web page as clean text (html-to-text): navigation, scripts, styles, forms and images dropped,
 * links as their words only, and headings kept as Markdown `#` lines so the chunker sees the
 * page's structure.
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
      { selector: 'table', format: 'dataTable' },
    ],
  });
}

/** A PDF's text (unpdf's serverless build of Mozilla's PDF.js), pages separated by blank lines. */
export async function pdfToText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return (text as string[]).map((page) => page.trim()).join('\n\n');
  } finally {
    await pdf.destroy();
  }
}

/** A fetched document's text, whatever its kind. */
export async function documentText(kind: DocumentKind, bytes: Uint8Array): Promise<string> {
  if (kind === 'pdf') return pdfToText(bytes);
  const text = Buffer.from(bytes).toString('utf8');
  return kind === 'html' ? htmlToText(text) : text;
}
