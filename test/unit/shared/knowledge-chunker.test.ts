import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_CHARS, CHUNK_SEARCH_CHARS, chunkSearchText, chunkText, chunkUpTo, HEADING_CHARS } from '../../../shared/knowledge/chunker';

/** The heading regex the chunker used before: right, but it backtracked for seconds over long runs of spaces. */
const BACKTRACKING_HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** The heading path chunkText gives the paragraph under `line`. */
const headingUnder = (line: string) => chunkText(`${line}\n\nbody`).at(-1)!.heading;

describe('chunkText: headings', () => {
  it.each([
    ['## Opening hours', 'Opening hours'],
    ['## Opening hours ##', 'Opening hours'],
    ['#\tTabbed  ', 'Tabbed'],
    ['###### Six', 'Six'],
    ['####### Seven is text', ''],
    ['#NoSpace', ''],
    ['# ###', '#'],
  ])('reads %j as the heading %j', (line, heading) => {
    expect(headingUnder(line)).toBe(heading);
  });

  it('reads every short line as the old regex did', () => {
    const rest = fc.string({ unit: fc.constantFrom('#', ' ', '\t', 'a', 'C', '.'), maxLength: 14 });
    const line = fc.tuple(fc.constantFrom('', '#', '## ', '######', '#######'), rest).map(([hashes, text]) => hashes + text);
    fc.assert(
      fc.property(line, (text) => {
        expect(headingUnder(text)).toBe(BACKTRACKING_HEADING.exec(text)?.[2]!.trim() ?? '');
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a 60,000-character heading line of spaces in linear time', () => {
    // Arrange: 2,000 characters of this took the old regex 8.7 s (and grew with the square)
    const line = `# a${' '.repeat(60_000)}x`;
    // Act
    const started = performance.now();
    const heading = headingUnder(line);
    // Assert
    expect(heading).toBe('a…');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('chunkText: bounds', () => {
  const words = (count: number, word = 'word') => Array.from({ length: count }, (_, i) => `${word}${i}`).join(' ');

  it('cuts a 50,000-character heading at a word, with "…", to 150 characters', () => {
    // Act
    const [chunk] = chunkText(`# ${words(6_000)}\n\nOpen on Saturdays.`);
    // Assert
    expect(chunk!.heading.length).toBeLessThanOrEqual(HEADING_CHARS.title);
    expect(chunk!.heading).toMatch(/^word0 word1 .* word\d+…$/);
    expect(chunk!.text).toBe('Open on Saturdays.');
  });

  it("keeps the nearest titles of a path past 300 characters, the section's own title whole", () => {
    // Arrange: six levels of 140-character titles
    const titles = Array.from({ length: 6 }, (_, level) => `L${level} ${'x'.repeat(136)}`);
    const text = titles.map((title, level) => `${'#'.repeat(level + 1)} ${title}`).join('\n') + '\n\nBody.';
    // Act
    const [chunk] = chunkText(text);
    // Assert
    expect(chunk!.heading.length).toBeLessThanOrEqual(HEADING_CHARS.path);
    expect(chunk!.heading).toBe(`… > ${titles[4]} > ${titles[5]}`);
  });

  it('cuts a paragraph of one giant "word" (emoji, no spaces) into chunks within the maximum, no emoji split', () => {
    // Act
    const chunks = chunkText('🦷'.repeat(10_000));
    // Assert
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_CHARS.max);
      expect(chunk.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    expect(chunks.map((chunk) => chunk.text).join('')).toContain('🦷'.repeat(500));
  });

  it('keeps every chunk within CHUNK_CHARS.max and every heading within HEADING_CHARS.path, whatever the text', () => {
    // Arrange: lines of words, long runs without spaces, sentence ends, headings, CJK and emoji
    const unit = fc.constantFrom('a', 'bb ', '. ', '\n', '\n\n', '\n# ', '\n### ', '字', '🙂', 'x'.repeat(700), ' '.repeat(50), '!?');
    const text = fc.array(unit, { maxLength: 400 }).map((units) => units.join(''));
    // Act + Assert
    fc.assert(
      fc.property(text, (input) => {
        for (const chunk of chunkText(input)) {
          expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_CHARS.max);
          expect(chunk.heading.length).toBeLessThanOrEqual(HEADING_CHARS.path);
          expect(chunkSearchText(chunk).length).toBeLessThanOrEqual(CHUNK_SEARCH_CHARS);
          expect(/\p{Cs}/u.test(chunkSearchText(chunk))).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never starts an overlap inside an emoji (a lone surrogate in every passage)', () => {
    const text = `${'a'.repeat(7)}${'😀'.repeat(600)}. `.repeat(20);
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(/\p{Cs}/u.test(chunk.text)).toBe(false);
  });

  it('keeps a chunk carrying the overlap within the maximum (it was 1,201 characters)', () => {
    // Arrange: a paragraph cut at 1,050, after a passage whose 150-character tail is carried over
    const first = 'g'.repeat(250);
    const long = 'y'.repeat(5_000);
    // Act
    const chunks = chunkText(`${first}\n\n${long}`);
    // Assert
    expect(Math.max(...chunks.map((chunk) => chunk.text.length))).toBeLessThanOrEqual(CHUNK_CHARS.max);
  });
});

describe('chunkUpTo', () => {
  /** `count` sections of one passage each. */
  const sections = (count: number) => Array.from({ length: count }, (_, i) => `## S${i}\n\nFact ${i}.`).join('\n\n');

  it.each([
    [3, 5, 3, false],
    [5, 5, 5, false],
    [6, 5, 5, true],
    [0, 5, 0, false],
  ])('%i passages, limit %i: %i kept, truncated %s', (count, limit, kept, truncated) => {
    // Act
    const result = chunkUpTo(sections(count), limit);
    // Assert
    expect(result.chunks).toEqual(chunkText(sections(count)).slice(0, kept));
    expect(result.truncated).toBe(truncated);
  });
});
