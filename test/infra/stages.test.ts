import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import './api-and-webhooks.checks';
import './console.checks';
import './data-stack.checks';
import './dev-stage.checks';
import './media-stack.checks';
import './ops-stack.checks';
import './security.checks';

/**
 * The checks of the synthesized stages, run as one test file so that one worker imports aws-cdk-lib
 * and synthesizes the TLS stage once (`synthesizeTlsStage()` in `./synth.ts`). As six files they ran
 * in up to four workers at once, each importing aws-cdk-lib and synthesizing the stage itself:
 * `npm run test:infra` took 95 s of CPU that way and 29 s in one worker (docs/decisions.md
 * "Test run time: the infra checks are one test file"). One check: `npm run test:infra -- -t "<name>"`.
 */
const CHECKS = ['api-and-webhooks', 'console', 'data-stack', 'dev-stage', 'media-stack', 'ops-stack', 'security'];

describe('the infra checks', () => {
  it('imports every *.checks.ts file of the folder, so none is left out of the run', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((name) => name.endsWith('.checks.ts'));
    expect(files.map((name) => name.replace(/\.checks\.ts$/, '')).sort()).toEqual(CHECKS);
  });
});
