import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildWebClient, describeBuild } from '../web-client/build';

const CONSOLE_ROOT = fileURLToPath(new URL('../console/', import.meta.url));

/** Where a build goes: by default console/dist and web-client/dist (what `npm run dev` serves). */
export interface WebBuildOptions {
  quiet?: boolean;
  consoleOutDir?: string;
  webClientOutDir?: string;
}

/** Builds the console (Vite, minified, hashed assets) into `outDir`, console/dist by default. */
export async function buildConsole(options: { quiet?: boolean; outDir?: string } = {}): Promise<void> {
  await build({
    configFile: `${CONSOLE_ROOT}vite.config.ts`,
    logLevel: options.quiet ? 'warn' : 'info',
    ...(options.outDir && { build: { outDir: options.outDir, emptyOutDir: true } }),
  });
}

/**
 * `npm run build:web`: everything a browser loads, built from source: the browser call client
 * (web-client/dist: the one-script-tag file, the ES module and the worklet) and the console
 * (console/dist). `npm run dev` runs it at start; the CDK app runs it before shipping the console.
 * Tests build into folders of their own, so two test files never share one.
 */
export async function buildWeb(options: WebBuildOptions = {}): Promise<void> {
  const files = await buildWebClient(options.webClientOutDir);
  if (!options.quiet) console.log(describeBuild(files));
  await buildConsole({ ...(options.quiet && { quiet: true }), ...(options.consoleOutDir && { outDir: options.consoleOutDir }) });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWeb();
