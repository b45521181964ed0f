import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules in eslint.config.js, probed with one import of each kind at a real file path:
 * a deliberate break must fail `npm run lint` (severity error), and the legal import beside it
 * must not. Linted in memory (`lintText`), so no file is written or read but the config.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The layer-rule errors ESLint reports for `code` as if it were the file at `file`. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'layers/imports' && m.severity === 2).map((m) => m.message);
}

describe('layer rules: a probe import of each kind is an error', () => {
  it.each([
    [
      'functions → media-service',
      'functions/sweeper/index.ts',
      "import { TwilioTelephony } from '../../media-service/src/adapters/twilio-telephony';",
    ],
    ['media-service → functions', 'media-service/src/main.ts', "import { createSweeper } from '../../functions/sweeper/deps';"],
    ['scripts → test', 'scripts/local/infra.ts', "import { createApiHarness } from '../../test/support/api-harness';"],
    ['shared → bench', 'shared/services/call-service.ts', "import { run } from '../../bench/lib/run';"],
    [
      'shared → media-service',
      'shared/services/call-service.ts',
      "import { startCallSession } from '../../media-service/src/call/call-session';",
    ],
    ['shared/domain → a package outside its list', 'shared/domain/call.ts', "import { parsePhoneNumber } from 'libphonenumber-js/max';"],
    ['shared/domain → shared/db', 'shared/domain/call.ts', "import type { Db } from '../db/client';"],
    ['shared/domain → a node: builtin', 'shared/domain/call.ts', "import { randomUUID } from 'node:crypto';"],
    ['shared/db → shared/knowledge', 'shared/db/knowledge-repository.ts', "import type { Chunk } from '../knowledge/chunker';"],
    ['shared/db → shared/services', 'shared/db/call-repository.ts', "import type { CallEnding } from '../services/call-lifecycle';"],
    ['shared/knowledge → shared/services', 'shared/knowledge/ingest.ts', "import type { UrlPolicy } from '../services/config-checks';"],
    [
      'call → a repository (type-only)',
      'media-service/src/call/call-context.ts',
      "import type { CallRepository } from '../../../shared/db/call-repository';",
    ],
    [
      'call → a service',
      'media-service/src/call/call-session.ts',
      "import type { CallLifecycle } from '../../../shared/services/call-lifecycle';",
    ],
    [
      'call → an adapter',
      'media-service/src/call/workflow/workflow-run.ts',
      "import { TwilioTelephony } from '../../adapters/twilio-telephony';",
    ],
    [
      'call → a repository, re-exported',
      'media-service/src/call/session-types.ts',
      "export type { CallRecord } from '../../../shared/db/call-record';",
    ],
    [
      'call → a repository, imported at run time',
      'media-service/src/call/call-session.ts',
      "await import('../../../shared/db/tool-repository');",
    ],
    [
      'call → a repository, as an import() type',
      'media-service/src/call/call-session.ts',
      "export type Calls = import('../../../shared/db/call-repository').CallRepository;",
    ],
  ])('%s', async (_kind, file, code) => {
    // Act
    const errors = await layerErrors(file, code);

    // Assert
    expect(errors).toHaveLength(1);
  });
});

describe('layer rules: the legal imports beside them are not', () => {
  it.each([
    ['functions → shared', 'functions/sweeper/index.ts', "import { TwilioHangup } from '../../shared/telephony/twilio-hangup';"],
    ['media-service → shared', 'media-service/src/main.ts', "import { readConfig } from '../../shared/config';"],
    ['scripts → its own stand-ins', 'scripts/local/infra.ts', "import { startFauxqsServer } from './stand-ins/fauxqs';"],
    ['test → the local stack', 'test/setup/global-setup.ts', "import { startFauxqsServer } from '../../scripts/local/stand-ins/fauxqs';"],
    [
      'shared/domain → domain, valibot, luxon, errors',
      'shared/domain/call.ts',
      "import * as v from 'valibot';\nimport { DateTime } from 'luxon';\nimport { ValidationError } from '../errors';\nimport { strictDict } from './validation';",
    ],
    ['shared/db → shared/domain', 'shared/db/knowledge-repository.ts', "import type { Chunk } from '../domain/knowledge';"],
    ['shared/knowledge → shared/security', 'shared/knowledge/ingest.ts', "import type { UrlPolicy } from '../security/ssrf';"],
    ['call → a port', 'media-service/src/call/call-context.ts', "import type { CallRecord } from '../ports/call-records';"],
    ['call → the domain', 'media-service/src/call/call-session.ts', "import type { EndedReason } from '../../../shared/domain/call';"],
    [
      'the composition root → repositories',
      'media-service/src/server/media-runtime.ts',
      "import { CallRepository } from '../../../shared/db/call-repository';",
    ],
  ])('%s', async (_kind, file, code) => {
    // Act
    const errors = await layerErrors(file, code);

    // Assert
    expect(errors).toEqual([]);
  });
});
