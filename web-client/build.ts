/**
 * Builds the browser client: dist/web-call.js (a classic script defining the global
 * `VoiceAgent`, for one script tag), dist/web-call.mjs (an ES module) and
 * dist/web-call-worklet.js (the AudioWorklet processors, for pages whose CSP allows worklets from
 * their own origin only). The two client files carry the worklet inside them too, as a string
 * they load through a Blob URL when no `workletUrl` is given. Minified, with each file's size and
 * gzip size printed.
 *
 * @example
 * npx tsx web-client/build.ts            # into web-client/dist
 * await buildWebClient('/tmp/out');       // from the dev script or a test
 */
import { build, type BuildOptions } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const SOURCE = join(import.meta.dirname, 'src');
/** Browsers with AudioWorklet and the client's syntax: Chromium 100+, Firefox 100+, Safari 15+ (untested). */
const TARGET = ['chrome100', 'firefox100', 'safari15'];

/** One file built: its name and its sizes in bytes. */
export interface BuiltFile {
  file: string;
  path: string;
  bytes: number;
  gzipBytes: number;
}

/** One entry point, bundled and minified, returned as text rather than written. */
async function bundle(entry: string, options: BuildOptions): Promise<string> {
  const result = await build({
    entryPoints: [join(SOURCE, entry)],
    bundle: true,
    minify: true,
    write: false,
    target: TARGET,
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'silent',
    ...options,
  });
  const [output] = result.outputFiles ?? [];
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}

/** Builds the three files into `outDir` (default web-client/dist) and returns their sizes. */
export async function buildWebClient(outDir = join(import.meta.dirname, 'dist')): Promise<BuiltFile[]> {
  const worklet = await bundle('worklet.ts', { format: 'iife' });
  const define = { __WEB_CALL_WORKLET__: JSON.stringify(worklet) };
  const [script, module] = await Promise.all([
    bundle('index.ts', { format: 'iife', globalName: 'VoiceAgent', define }),
    bundle('index.ts', { format: 'esm', define }),
  ]);
  mkdirSync(outDir, { recursive: true });
  const files: [string, string][] = [
    ['web-call.js', script],
    ['web-call.mjs', module],
    ['web-call-worklet.js', worklet],
  ];
  return files.map(([file, text]) => {
    const path = join(outDir, file);
    writeFileSync(path, text);
    return { file, path, bytes: Buffer.byteLength(text), gzipBytes: gzipSync(text).length };
  });
}

/** `file  12.3 KB  (4.5 KB gzip)`, one line per file. */
export function describeBuild(files: BuiltFile[]): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return files.map((f) => `${f.file.padEnd(22)}${kb(f.bytes).padStart(9)}  (${kb(f.gzipBytes)} gzip)`).join('\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildWebClient(process.argv[2])
    .then((files) => console.log(describeBuild(files)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
