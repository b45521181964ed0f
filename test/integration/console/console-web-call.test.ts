import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminService } from '../../../functions/lib/deps';
import { buildWeb } from '../../../scripts/build-web';
import { startLocalStack, type LocalStack } from '../../../scripts/local/stack';
import { launchBrowser } from '../../support/browser';
import { CALL_TEST_MS } from '../../support/call-limits';
import { localStackInfra } from '../../support/local-stack-infra';

/**
 * The console as a person uses it, in Debian's Chromium against `npm run dev`'s stack
 * (`startLocalStack`: the API and the console on one port, the call engine, the sandbox carrier
 * and providers): sign in with the keyboard, create an assistant through the form, talk to it
 * with typed speech (a web call on the sandbox) and read the live transcript, hang up, then find
 * the call on the calls page with its recording and per-turn latency. Every page is checked with
 * axe-core under the console's real Content-Security-Policy. Everything waits on what the page
 * shows (no sleeps); the limits only bound a hang.
 */

const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** What the assistant's sandbox model answers an hours question with starts like this. */
const CALLER_LINE = 'Hi, what are your opening hours?';
/** A bound on a hang, never a timing: a busy machine is slow (test/support/call-limits.ts). */
const LONG = { timeout: CALL_TEST_MS };

let stack: LocalStack;
let browser: Browser;
let apiKey: string;
/** This file's own build of the console and the browser client (another test file may be building console/dist). */
let built: string;

beforeAll(async () => {
  built = await mkdtemp(join(tmpdir(), 'console-e2e-'));
  const consoleDir = join(built, 'console');
  const webClientDir = join(built, 'web-client');
  await buildWeb({ quiet: true, consoleOutDir: consoleDir, webClientOutDir: webClientDir });
  stack = await startLocalStack({ apiPort: 0, mediaPort: 0, mediaTasks: 1, infra: await localStackInfra(), consoleDir, webClientDir });
  const admin = createAdminService(stack.core, 'test');
  const business = await admin.createBusiness(`Console ${randomUUID().slice(0, 8)}`, 100);
  apiKey = business.api_key;
  browser = await launchBrowser();
}, CALL_TEST_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (built) await rm(built, { recursive: true, force: true });
});

/** Runs axe-core on the page as it is now: no serious or critical violation. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a script tag would be refused).
  await page.evaluate(`${await AXE_SOURCE};0`);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (context?: unknown) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as any).document);
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
  });
  expect(violations, `axe on ${where}`).toEqual([]);
}

describe('the console, in a real browser', () => {
  it('signs in, creates an assistant, talks to it with typed speech, and finds the call with its recording and latency', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(CALL_TEST_MS);
    const refused: string[] = [];
    page.on(
      'console',
      (message) => message.type() === 'error' && /Content.Security.Policy|Refused/.test(message.text()) && refused.push(message.text()),
    );

    // Sign in with the keyboard alone.
    await page.goto(stack.consoleUrl);
    await page.getByLabel('API key').waitFor(LONG);
    await expectAccessible(page, 'sign-in');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id as string | undefined), LONG)
      .toBe('api-key');
    await page.keyboard.type(apiKey);
    await page.keyboard.press('Enter');
    for (const name of ['Assistants', 'Calls', 'Bookings', 'Messages', 'Knowledge', 'Tools', 'Workflows', 'Usage']) {
      await page.getByRole('link', { name, exact: true }).waitFor(LONG);
    }
    expect(
      await page.evaluate(() => ({
        local: (globalThis as any).localStorage.length as number,
        cookie: (globalThis as any).document.cookie as string,
      })),
    ).toEqual({ local: 0, cookie: '' });

    // Create an assistant through the form.
    await page.getByRole('link', { name: 'New assistant' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Front desk');
    await page.getByLabel('Template', { exact: true }).selectOption('receptionist');
    await expectAccessible(page, 'new assistant');
    await page.getByRole('button', { name: 'Create assistant' }).click();
    await page.getByRole('button', { name: 'Talk to it' }).waitFor(LONG);
    await expectAccessible(page, 'assistant');

    // Talk to it: the greeting, then a typed line and its answer, live.
    await page.getByRole('button', { name: 'Talk to it' }).click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.waitFor(LONG);
    await expect.poll(() => transcript.innerText(), LONG).toMatch(/\w/);
    const say = page.getByLabel('Say', { exact: true });
    await say.fill(CALLER_LINE);
    await say.press('Enter');
    await expect.poll(() => transcript.innerText(), LONG).toContain(CALLER_LINE);
    await expect.poll(async () => (await transcript.innerText()).split(CALLER_LINE)[1]?.trim().length ?? 0, LONG).toBeGreaterThan(10);
    await expectAccessible(page, 'web call');
    const firstWords = await page
      .getByText(/first words/i)
      .first()
      .innerText();
    console.log(`console web call: ${firstWords}`);
    await page.getByRole('button', { name: 'Hang up' }).click();

    // The call on the calls page: a web call with its recording and per-turn latency.
    await page.getByRole('link', { name: 'Calls', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: 'web' }).first();
    await row.waitFor(LONG);
    await expectAccessible(page, 'calls');
    await row.getByRole('link').first().click();
    const recording = page.getByLabel('Recording');
    await recording.waitFor(LONG);
    expect(await recording.evaluate((audio) => audio.tagName)).toBe('AUDIO');
    expect(await recording.getAttribute('src')).toMatch(/^https?:\/\//);
    await expect.poll(() => page.getByText(CALLER_LINE).count(), LONG).toBeGreaterThan(0);
    await expect.poll(() => page.locator('main').innerText(), LONG).toMatch(/\d+\s?ms/);
    await expectAccessible(page, 'call');
    expect(refused).toEqual([]);
    await page.close();
  });

  it('listens to a live call from its page, shows the live transcript, and ends it with a confirmation', async () => {
    // Arrange: a web call running beside the console (a script's socket, typed speech), and a signed-in page.
    const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const assistant = (await (
      await fetch(`${stack.apiUrl}/assistants`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Listened to' }) })
    ).json()) as { id: number };
    const grant = (await (
      await fetch(`${stack.apiUrl}/calls/web`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant_id: assistant.id }) })
    ).json()) as { call_id: number; url: string; token: string };
    const caller = new WebSocket(grant.url);
    const heard: { type: string; reason?: string }[] = [];
    caller.on('open', () => caller.send(JSON.stringify({ type: 'start', token: grant.token })));
    caller.on('message', (data, isBinary) => {
      if (isBinary) return;
      const message = JSON.parse(data.toString()) as { type: string; name?: string; reason?: string };
      heard.push(message);
      if (message.type === 'mark') caller.send(JSON.stringify({ type: 'mark', name: message.name }));
    });
    await expect.poll(() => heard.some((m) => m.type === 'started'), { timeout: CALL_TEST_MS }).toBe(true);
    const page = await browser.newPage();
    await page.goto(stack.consoleUrl);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByLabel('API key').press('Enter');
    await page.getByRole('link', { name: 'Calls', exact: true }).waitFor();
    await page.goto(`${stack.consoleUrl.replace(/\/$/, '')}/calls/${grant.call_id}`);

    // Act: listen, and the caller speaks
    await page.getByRole('button', { name: 'Listen' }).click({ timeout: CALL_TEST_MS });
    const live = page.getByRole('log', { name: 'Live transcript' });
    await live.waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Stop listening' }).isVisible(), { timeout: CALL_TEST_MS }).toBe(true);
    caller.send(JSON.stringify({ type: 'say', text: CALLER_LINE }));
    await expect.poll(() => live.innerText(), { timeout: CALL_TEST_MS }).toContain(`Caller: ${CALLER_LINE}`);
    await expect.poll(() => live.innerText(), { timeout: CALL_TEST_MS }).toContain('Assistant:');
    await expectAccessible(page, 'listening');

    // Act: end it, confirmed
    await page.getByRole('button', { name: 'End call' }).click();
    await page.getByRole('button', { name: 'Yes, end the call' }).click();

    // Assert: the call ended canceled, for the caller and on the page
    await expect
      .poll(() => heard.find((m) => m.type === 'ended'), { timeout: CALL_TEST_MS })
      .toEqual({ type: 'ended', reason: 'canceled' });
    // The page reads the call again (every 2 s while live): ended, canceled, and the live controls gone.
    await expect.poll(() => page.getByRole('button', { name: 'End call' }).count(), { timeout: CALL_TEST_MS }).toBe(0);
    expect(await page.locator('main').innerText()).toMatch(/canceled/i);
    expect(await page.evaluate(() => (globalThis as any).document.body.innerText as string)).not.toContain('wl_');
    caller.close();
    await page.close();
  });
});
