import { fileURLToPath } from 'node:url';

/**
 * The repository root: Lambda entries (`functions/<name>/index.ts`) and the media-service Docker
 * build context are resolved from here, whatever directory `cdk` or the tests run in.
 */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
