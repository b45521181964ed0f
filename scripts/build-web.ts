import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { buildWebClient, describeBuild } from '../web-client/build';

const CONSOLE_ROOT = fileURLToPath(new URL('../console/', import.meta.url));

/** Builds the console into console/dist (Vite, minified, hashed assets). */
export async function buildConsole(options: { quiet?: boolean } = {}): Promise<void> {
  await build({ configFile: `${CONSOLE_ROOT}vite.config.ts`, logLevel: options.quiet ? 'warn' : 'info' });
}

/**
 * `npm run build:web`: everything a browser loads, built from source: the browser call client
 * (web-client/dist: the one-script-tag file, the ES module and the worklet) and the console
 * (console/dist). `npm run dev` runs it at start; the CDK app runs it before shipping the console.
 */
export async function buildWeb(options: { quiet?: boolean } = {}): Promise<void> {
  const files = await buildWebClient();
  if (!options.quiet) console.log(describeBuild(files));
  await buildConsole(options);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWeb();
