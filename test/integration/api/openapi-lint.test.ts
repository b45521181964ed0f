import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../shared/domain/openapi';

type Json = Record<string, any>;

const REDOCLY = join(process.cwd(), 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
/** Offline: no telemetry (also off in redocly.yaml) and no update check against the registry. */
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `redocly lint` with the repo's redocly.yaml (the `recommended` rules) over one document. */
async function redoclyLint(document: Json, name: string): Promise<LintReport> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(document));
  const args = [REDOCLY, 'lint', file, '--config', 'redocly.yaml', '--format=json'];
  // redocly exits 1 when it finds errors; the report on stdout says which.
  const { stdout } = await promisify(execFile)(process.execPath, args, { env: OFFLINE, maxBuffer: 8 << 20 }).catch(
    (failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }),
  );
  return JSON.parse(stdout) as LintReport;
}

describe('redocly lint (recommended rules) over GET /api/v1/openapi.json', () => {
  it('finds no error and no warning', async () => {
    // Act
    const report = await redoclyLint(buildOpenApiDocument(), 'document');

    // Assert
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('reports what it is there to catch (a tag with no description, an operation with no 4XX)', async () => {
    // Arrange
    const document = structuredClone(buildOpenApiDocument()) as Json;
    delete document.tags[0].description;
    delete document.paths['/openapi.json'].get.responses['429'];

    // Act
    const report = await redoclyLint(document, 'broken');

    // Assert
    expect(report.problems.map((problem) => problem.ruleId).sort()).toEqual(['operation-4xx-response', 'tag-description']);
  });
});
