import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const CONSOLE_ROOT = fileURLToPath(new URL('../console/', import.meta.url));

/** Builds the console into console/dist (Vite, minified, hashed assets). */
export async function buildConsole(options: { quiet?: boolean } = {}): Promise<void> {
  await build({ configFile: `${CONSOLE_ROOT}vite.config.ts`, logLevel: options.quiet ? 'warn' : 'info' });
}

/** `npm run build:web`: everything the browser loads, built from source. */
export async function buildWeb(options: { quiet?: boolean } = {}): Promise<void> {
  await buildConsole(options);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWeb();
