import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Comments and docs cite a doc by heading, in one form: docs/<file>.md then the heading's text in
 * double quotes (a prefix of it is enough). Headings carry no numbers, so a citation cannot go
 * stale when sections move; this test makes renaming a heading fail until its citations follow.
 * Pure file reads: the source folders are walked, no git and no child process.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDERS = ['functions', 'shared', 'media-service', 'infra', 'scripts', 'bench', 'test', 'docs', 'console', 'web-client'];
const SKIPPED = new Set(['node_modules', 'dist', '.data', 'cdk.out', 'coverage', '.git']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|ya?ml|sh|html|txt)$|(^|\/)Dockerfile$/;
const SECTION_SIGN = '\u00a7';

/** The one form (the doc's path, a space, the heading in double quotes), also over two comment lines. */
const CITATION = /(?<![\w.-])(docs\/)?([\w-]+)\.md(,?) "([^"]{1,200})"/g;
/** A Markdown link to a doc, then the heading in double quotes (after a comma or in brackets too). */
const LINKED = /\[`?(?:docs\/)?([\w-]+)\.md`?\]\((?:\.\.\/)?(?:docs\/)?\1\.md\),?\s*\(?"([^"]{1,200})"/g;
/** A section number after a doc's name: the headings have none, and numbers move. */
const NUMBERED = [
  new RegExp(`[\\w-]+\\.md\`?\\)?,? ?${SECTION_SIGN}\\s?\\d`, 'g'),
  new RegExp(`\\bdesign ?${SECTION_SIGN}\\s?\\d`, 'g'),
  /[\w-]+\.md,? [A-Z]\d+\b/g, // a lettered section, as protocols.md had ("A1. Twilio")
];

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile() && TEXT.test(path)) yield path;
  }
}

/** Every text source: the folders above, and the files at the top (README.md, the configs). */
function sources(): string[] {
  const top = readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isFile() && TEXT.test(e.name) && e.name !== 'package-lock.json')
    .map((e) => join(ROOT, e.name));
  return [...top, ...FOLDERS.filter((f) => existsSync(join(ROOT, f))).flatMap((f) => [...walk(join(ROOT, f))])];
}

/** A heading's text: without its #s, spaces and any leading section number ("7.", "A1.", "B."). */
function headingText(line: string): string {
  return line
    .replace(/^#{1,6}\s+/, '')
    .replace(/\s+#*\s*$/, '')
    .replace(/^(?:[A-Z]?\d+(?:\.\d+)*\.?|[A-Z]\.)\s+/, '');
}

/** The headings of a Markdown text, fenced code skipped (a shell comment is not a heading). */
function headingsOf(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && /^#{1,6}\s/.test(line)) out.push(headingText(line));
  }
  return out;
}

/** A cited text as one line: a line break and the next line's comment marker become one space. */
const oneLine = (text: string) => text.replace(/\s*\n\s*(?:\*|\/\/|#)?\s*/g, ' ').trim();

/** The problems in one file's text; `headings(doc)` is null when docs/<doc>.md does not exist. */
function problemsIn(file: string, text: string, headings: (doc: string) => string[] | null): string[] {
  const problems: string[] = [];
  const at = (index: number) => `${file}:${text.slice(0, index).split('\n').length}`;
  if (!text.includes('.md')) return problems;
  const check = (index: number, doc: string, raw: string) => {
    const cited = oneLine(raw);
    const found = headings(doc);
    if (found === null) problems.push(`${at(index)}: docs/${doc}.md does not exist`);
    else if (!found.some((h) => h.startsWith(cited))) problems.push(`${at(index)}: docs/${doc}.md has no heading "${cited}"`);
  };
  for (const m of text.matchAll(CITATION)) {
    const [all, prefix, doc = '', comma, raw = ''] = m;
    if (!prefix && headings(doc) === null) continue; // a file outside docs/ (README.md…): not checked here
    if (!prefix || comma) problems.push(`${at(m.index)}: ${all.slice(0, -raw.length - 1)}… is not the one form docs/${doc}.md "…"`);
    check(m.index, doc, raw);
  }
  for (const m of text.matchAll(LINKED)) check(m.index, m[1] ?? '', m[2] ?? '');
  for (const re of NUMBERED) {
    for (const m of text.matchAll(re)) problems.push(`${at(m.index)}: ${m[0]}… cites a section by number`);
  }
  return problems;
}

describe('citations of docs by heading', () => {
  const cache = new Map<string, string[] | null>();
  const headings = (doc: string) => {
    if (!cache.has(doc)) {
      const path = join(ROOT, 'docs', `${doc}.md`);
      cache.set(doc, existsSync(path) ? headingsOf(readFileSync(path, 'utf8')) : null);
    }
    return cache.get(doc) ?? null;
  };

  it('every docs/<file>.md "Heading" names a heading that exists, and none cites a section number', () => {
    // Arrange
    const files = sources();

    // Act
    const problems = files.flatMap((f) => problemsIn(relative(ROOT, f), readFileSync(f, 'utf8'), headings));

    // Assert
    expect(files.length).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it('finds a missing heading, a missing doc, a section number and the comma form', () => {
    // Arrange: the citations are split so this file does not cite them itself.
    const docs = (doc: string) => (doc === 'design' ? ['Workflows', 'Built-in tools on a call'] : null);
    const md = (rest: string) => `docs/design.md${rest}`;
    const text = [
      `// ${md(' "Workflows"')}: fine`,
      `// ${md(' "Built-in tools')}`,
      `//   on a call"): fine, over two lines`,
      `// ${md(' "No such heading"')}`,
      `// ${md(' "Workflows"').replace('design', 'nowhere')}`,
      `// ${md(` ${SECTION_SIGN}9`)} and ${md(' A1').replace('design', 'protocols')}`,
      `// ${md(', "Workflows"')}`,
      `// ${md(' "Workflows"').slice(5)} and README.md "Anything": another folder's file`,
    ].join('\n');

    // Act
    const problems = problemsIn('probe.ts', text, docs);

    // Assert
    expect(problems).toEqual([
      'probe.ts:4: docs/design.md has no heading "No such heading"',
      'probe.ts:5: docs/nowhere.md does not exist',
      `probe.ts:7: ${md(', "')}… is not the one form ${md(' "…"')}`,
      `probe.ts:8: ${md(' "').slice(5)}… is not the one form ${md(' "…"')}`,
      `probe.ts:6: design.md ${SECTION_SIGN}9… cites a section by number`,
      `probe.ts:6: ${md(' A1').replace('docs/design', 'protocols')}… cites a section by number`,
    ]);
  });

  it('reads a heading without its number', () => {
    expect(headingsOf('# Title\n## 7. Built-in tools\n```sh\n# not a heading\n```\n### A1. Twilio\n')).toEqual([
      'Title',
      'Built-in tools',
      'Twilio',
    ]);
  });
});
