import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../../scripts/build-web';

/** This file's own build of the console (another test file may be building console/dist). */
let DIST: string;

/** Every file the console's first load fetches: index.html, its entry script and stylesheet, and their static imports. */
async function firstLoad(): Promise<string[]> {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const seen = new Set<string>(['index.html']);
  const queue = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1]!);
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js')) continue;
    const code = await readFile(join(DIST, file), 'utf8');
    // Static imports only (`import … from "./x.js"` and bare `import "./x.js"`); `import("./x.js")` is a lazy page.
    for (const match of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["']\.\/([^"']+\.js)["']/g))
      queue.push(`assets/${match[1]!}`);
  }
  return [...seen];
}

/** What a secret of ours, or a vendor's, looks like in text. */
const SECRET_PATTERNS = [
  /vk_(?:live|test)_[A-Za-z0-9]{16,}/,
  /whsec_[A-Za-z0-9+/=]{16,}/,
  /sk_(?:live|test)_[A-Za-z0-9]{16,}/,
  /AKIA[0-9A-Z]{16}/,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /AC[0-9a-f]{32}/,
];

beforeAll(async () => {
  DIST = await mkdtemp(join(tmpdir(), 'console-'));
  await buildWeb({ quiet: true, consoleOutDir: DIST, webClientOutDir: join(DIST, 'web-client') });
}, 120_000);

afterAll(async () => {
  if (DIST) await rm(DIST, { recursive: true, force: true });
});

describe('the console as built', () => {
  it('loads at most 200 KB of JavaScript and CSS, gzip-compressed, on the first page', async () => {
    const files = await firstLoad();
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    let bytes = 0;
    for (const file of files) if (/\.(js|css)$/.test(file)) bytes += gzipSync(await readFile(join(DIST, file))).length;
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(200 * 1024);
  });

  it('holds no secret: no key, token or private key of ours or a vendor’s in any file it ships', async () => {
    const files = (await readdir(DIST, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    expect(files.length).toBeGreaterThan(2);
    for (const entry of files) {
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
      for (const pattern of SECRET_PATTERNS) expect(pattern.test(text), `${entry.name} matches ${pattern}`).toBe(false);
    }
  });

  it('has no inline script or style for the Content-Security-Policy to refuse', async () => {
    const html = await readFile(join(DIST, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  });
});
