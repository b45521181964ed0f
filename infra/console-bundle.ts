import { spawnSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ILocalBundling } from 'aws-cdk-lib';

/**
 * The console's files, built from source when the CDK app bundles its assets (`cdk deploy`,
 * `npm run synth`), exactly as the Lambda functions are bundled by esbuild then. A synthesis that
 * skips bundling (the infra tests, or a stack not being deployed) never runs it, so a clean clone
 * synthesises without a built console and nothing stands in for one.
 */

/** The root script that builds `web-client/dist` and then `console/dist` (Vite). */
export const CONSOLE_BUILD_SCRIPT = 'build:web';

/** Where Vite writes the console, relative to the repository root. */
export const CONSOLE_DIST = 'console/dist';
/** Where esbuild writes the browser client, relative to the repository root. */
export const WEB_CLIENT_DIST = 'web-client/dist';
/** The browser client's files, served at the site root for pages that embed a web call. */
export const WEB_CLIENT_FILES = ['web-call.js', 'web-call.mjs', 'web-call-worklet.js'] as const;
/** Vite's hashed bundles: the only files cached for a year. */
export const CONSOLE_ASSETS_DIR = 'assets';

/** The built files are not where the build should have put them. */
export class ConsoleNotBuiltError extends Error {
  constructor(missing: readonly string[]) {
    super(`The console is not built: missing ${missing.join(', ')}. \`npm run ${CONSOLE_BUILD_SCRIPT}\` builds it.`);
    this.name = 'ConsoleNotBuiltError';
  }
}

/**
 * Copies the built site into `outputDir`: `console/dist` as it is (index.html, assets/) and the
 * browser client's three files beside index.html. Refuses, naming every missing file, when the
 * build left any of them out, so a partial site is never shipped.
 */
export function copyConsoleSite(root: string, outputDir: string): void {
  const required = [
    join(CONSOLE_DIST, 'index.html'),
    join(CONSOLE_DIST, CONSOLE_ASSETS_DIR),
    ...WEB_CLIENT_FILES.map((file) => join(WEB_CLIENT_DIST, file)),
  ];
  const missing = required.filter((path) => !existsSync(join(root, path)));
  if (missing.length > 0) throw new ConsoleNotBuiltError(missing);
  cpSync(join(root, CONSOLE_DIST), outputDir, { recursive: true });
  for (const file of WEB_CLIENT_FILES) cpSync(join(root, WEB_CLIENT_DIST, file), join(outputDir, file));
}

/** Runs the console's build in `root`; throws when it fails. Its output goes to stderr, as CDK's own bundling output does. */
export function runConsoleBuild(root: string): void {
  const result = spawnSync('npm', ['run', CONSOLE_BUILD_SCRIPT], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`npm run ${CONSOLE_BUILD_SCRIPT} failed (exit ${result.status ?? result.signal})`);
}

/**
 * Local bundling of the console asset: build, then copy. It never returns false, so CDK never
 * falls back to a Docker build; a failed build fails the synthesis.
 * @example Source.asset(REPO_ROOT, { bundling: { image, local: new ConsoleBundling(REPO_ROOT) } })
 */
export class ConsoleBundling implements ILocalBundling {
  constructor(
    private readonly root: string,
    private readonly build: (root: string) => void = runConsoleBuild,
  ) {}

  tryBundle(outputDir: string): boolean {
    this.build(this.root);
    copyConsoleSite(this.root, outputDir);
    return true;
  }
}
