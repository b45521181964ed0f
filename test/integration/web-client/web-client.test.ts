import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWebClient } from '../../../web-client/build';
import { launchBrowser } from '../../support/browser';
import { CallServer, tone, type BrowserPeer } from './call-server';
import { startPageServer, type PageHooks } from './test-page';

/**
 * The browser client in a real Chromium against a loopback server that plays the server side of
 * docs/protocols.md "Web calls". Chromium's fake microphone beeps (a 20 ms tone every 500 ms of
 * its own sample clock), so the frames the page sends can be checked for their size, their
 * energy and their rate. Every wait is on a message; every check on playback is on positions
 * the client reports (stats() as the page sends each mark echo), never on elapsed time.
 */

const TOKEN = 'wc_42.7.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const STARTED = { type: 'started', call_id: 42, sample_rate: 16000, encoding: 'pcm_s16le' };

let dist: string;
let browser: Browser;
let calls: CallServer;
let pages: { origin: string; server: Server };
let page: Page;

/** Runs `read` in the page on what page.js recorded (its source is sent, so it may use only its argument). */
const hooks = <T>(read: (hooks: PageHooks) => T): Promise<T> => page.evaluate(`(${read.toString()})(window)`) as Promise<T>;

/** Waits until `check` holds in the page (the same way: only its argument). */
const until = async (check: (hooks: PageHooks) => boolean): Promise<void> => {
  await page.waitForFunction(`(${check.toString()})(window)`, undefined, { polling: 50 });
};

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'web-client-'));
  await buildWebClient(dist);
  calls = await CallServer.start();
  pages = await startPageServer(dist, { url: calls.url, token: TOKEN });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await calls?.close();
  pages?.server.close();
  rmSync(dist, { recursive: true, force: true });
});

beforeEach(async () => {
  page = await browser.newPage();
});

afterEach(async () => {
  await page.close();
});

/** Opens `path`, starts a call with `options`, and answers `start` as the server would. */
async function startCall(
  path: string,
  options: Record<string, unknown> = {},
): Promise<{ peer: BrowserPeer; begun: ReturnType<PageHooks['begin']> }> {
  await page.goto(pages.origin + path);
  const begun = page.evaluate((o) => (globalThis as unknown as PageHooks).begin(o), { url: calls.url, token: TOKEN, ...options });
  const peer = await calls.nextPeer();
  expect(await peer.nextText()).toEqual({ type: 'start', token: TOKEN });
  return { peer, begun };
}

/** Mark echoes the page sent, with its stats() at the moment it sent each. */
const echoes = () => hooks((h) => h.sent.filter((s) => s.text.type === 'mark'));

/** The first sample of each beep: where a frame's energy rises from quiet. */
function beepOnsets(frames: Buffer[]): number[] {
  const samples = frames.flatMap((frame) => Array.from({ length: frame.length / 2 }, (_, i) => frame.readInt16LE(i * 2)));
  const onsets: number[] = [];
  let quiet = 0;
  samples.forEach((sample, index) => {
    if (Math.abs(sample) > 3000 && quiet >= 1600) onsets.push(index);
    quiet = Math.abs(sample) > 3000 ? 0 : quiet + 1;
  });
  return onsets;
}

describe('the browser client in Chromium', () => {
  it('sends 20 ms frames of 16 kHz microphone audio, with its level', async () => {
    // Arrange
    const { peer, begun } = await startCall('/');
    peer.sendJson(STARTED);
    expect(await begun).toEqual({ callId: 42 });

    // Act: 4 s of microphone, eight beeps.
    const frames = await peer.firstFrames(200);

    // Assert: every frame is 320 samples, and the beeps are 8,000 samples (500 ms at 16 kHz) apart
    // on average. The fake device times its beeps by the wall clock, so one beep may come a
    // callback (10 ms) or more early or late; over seven gaps that is under 4%, while a rate
    // mistake is 9% (44.1 kHz taken for 48) or 200% (48 kHz sent as it is).
    expect(new Set(frames.map((frame) => frame.length))).toEqual(new Set([640]));
    const onsets = beepOnsets(frames);
    expect(onsets.length).toBeGreaterThanOrEqual(6);
    const gap = (onsets.at(-1)! - onsets[0]!) / (onsets.length - 1);
    expect(Math.abs(gap - 8000)).toBeLessThan(8000 * 0.04);
    expect(Math.max(...(await hooks((h) => h.levels)))).toBeGreaterThan(0.05);
  });

  it('echoes a mark once the audio before it has played, and every pending mark at once on clear', async () => {
    // Arrange
    const { peer, begun } = await startCall('/');
    peer.sendJson(STARTED);
    await begun;

    // Act: one second of tone, then a mark.
    peer.sendAudio(tone(1000));
    peer.sendJson({ type: 'mark', name: 'one-second' });

    // Assert: the echo comes when all 16,000 samples, and no more, have played.
    expect(await peer.nextText()).toEqual({ type: 'mark', name: 'one-second' });
    const [first] = await echoes();
    expect(first!.stats).toMatchObject({ playedMs: 1000, bufferedMs: 0, framesReceived: 50 });

    // Act: five more seconds, a mark, one more second, a mark, then barge-in.
    peer.sendAudio(tone(5000));
    peer.sendJson({ type: 'mark', name: 'five' });
    peer.sendAudio(tone(1000));
    peer.sendJson({ type: 'mark', name: 'six' });
    peer.sendJson({ type: 'clear' });

    // Assert: both echoes, in order, decided at one position, before the first mark's audio had played.
    expect(await peer.nextText()).toEqual({ type: 'mark', name: 'five' });
    expect(await peer.nextText()).toEqual({ type: 'mark', name: 'six' });
    const [, five, six] = await echoes();
    expect(five!.stats).toEqual(six!.stats);
    expect(five!.stats!.bufferedMs).toBe(0);
    expect(five!.stats!.playedMs).toBeLessThan(1000 + 5000);
  });

  it('delivers the server events, sends typed speech, digits and the hang-up, and tears down', async () => {
    // Arrange
    const { peer, begun } = await startCall('/');
    peer.sendJson(STARTED);
    await begun;
    const tool = { type: 'tool', name: 'check_availability', arguments: { date: '2026-12-01' }, status: 'ok', result: { slots: 2 } };
    const server = [
      { type: 'state', state: 'speaking' },
      { type: 'transcript', role: 'assistant', text: 'Hello, how can I help?', final: true },
      { type: 'latency', turn: 1, ms: 612 },
      tool,
    ];

    // Act: the events, with a malformed message and an unknown type among them (both dropped).
    peer.socket.send('{not json');
    peer.sendJson({ type: 'future_message', anything: 1 });
    for (const message of server) peer.sendJson(message);
    await until((h) => h.events.length >= 4);
    const said = await hooks((h) => [h.call.say('A table for two, please.'), h.call.sendDigits('12#')]);
    const refused = await hooks((h) => {
      try {
        h.call.say('x'.repeat(501));
        return 'sent';
      } catch (error) {
        return (error as Error).name;
      }
    });
    await hooks((h) => h.call.hangUp());

    // Assert
    expect(await hooks((h) => h.events)).toEqual(server.map((message) => [message.type, message]));
    expect(said).toEqual([true, true]);
    expect(refused).toBe('RangeError');
    expect(await peer.nextText()).toEqual({ type: 'say', text: 'A table for two, please.' });
    expect(await peer.nextText()).toEqual({ type: 'dtmf', digits: '12#' });
    expect(await peer.nextText()).toEqual({ type: 'hangup' });
    peer.sendJson({ type: 'ended', reason: 'customer-ended-call' });
    peer.socket.close(1000);
    await until((h) => h.events.some(([name]) => name === 'ended'));
    expect((await hooks((h) => h.events)).at(-1)).toEqual(['ended', { type: 'ended', reason: 'customer-ended-call' }]);
    await until((h) => h.contexts.every((context) => context.state === 'closed'));
    expect(await hooks((h) => h.streams.flatMap((s) => s.getTracks()).map((t) => t.readyState))).toEqual(['ended']);
    expect(await hooks((h) => h.call.say('still there?'))).toBe(false);
  });

  it('rejects startWebCall on an error before started, and closes what it opened', async () => {
    // Arrange
    const { peer, begun } = await startCall('/');

    // Act
    peer.sendJson({ type: 'error', code: 'bad_token', message: 'This token was already used.' });
    peer.socket.close(1008);

    // Assert
    expect(await begun).toEqual({ error: { name: 'WebCallError', code: 'bad_token', message: 'This token was already used.' } });
    await until((h) => h.contexts.every((context) => context.state === 'closed'));
    expect(await hooks((h) => h.streams.flatMap((s) => s.getTracks()).map((t) => t.readyState))).toEqual(['ended']);
  });

  it('under a CSP with worklets from self only: no microphone, playback through workletUrl, ended on close', async () => {
    // Arrange
    const { peer, begun } = await startCall('/strict', { microphone: false, workletUrl: '/web-call-worklet.js' });
    peer.sendJson(STARTED);
    expect(await begun).toEqual({ callId: 42 });

    // Act
    peer.sendAudio(tone(200));
    peer.sendJson({ type: 'mark', name: 'short' });

    // Assert: the worklet loaded from the page's origin plays; the page asked for no microphone and sent no audio.
    expect(await peer.nextText()).toEqual({ type: 'mark', name: 'short' });
    expect((await echoes())[0]!.stats).toMatchObject({ playedMs: 200, framesReceived: 10 });
    expect(await hooks((h) => h.microphoneRequests)).toBe(0);
    expect(peer.frames).toEqual([]);
    peer.socket.close(1001);
    await until((h) => h.events.some(([name]) => name === 'ended'));
    expect((await hooks((h) => h.events)).at(-1)).toEqual(['ended', { type: 'ended', reason: 'connection_closed' }]);
  });

  it('under that CSP without workletUrl, says the worklet was refused, and closes what it opened', async () => {
    // Arrange
    await page.goto(`${pages.origin}/strict`);

    // Act
    const begun = await page.evaluate((o) => (globalThis as unknown as PageHooks).begin(o), { url: calls.url, token: TOKEN });

    // Assert
    expect(begun.error).toMatchObject({ name: 'WebCallError', code: 'worklet_unavailable' });
    expect(begun.error!.message).toContain('blob:');
    expect(await hooks((h) => h.contexts.map((context) => context.state))).toEqual(['closed']);
    expect(await hooks((h) => h.microphoneRequests)).toBe(0);
  });

  it('the example page: a call with typed speech, the live transcript and a hang-up, by accessible names', async () => {
    // Arrange
    await page.goto(`${pages.origin}/example`);
    await page.getByLabel('Use my microphone').uncheck();

    // Act: start; the server accepts and the assistant speaks.
    await page.getByRole('button', { name: 'Start a call' }).click();
    const peer = await calls.nextPeer();
    expect(await peer.nextText()).toEqual({ type: 'start', token: TOKEN });
    peer.sendJson(STARTED);
    peer.sendJson({ type: 'transcript', role: 'assistant', text: 'Hello, how can I help?', final: true });
    await page.getByRole('log', { name: 'Transcript' }).getByText('Assistant: Hello, how can I help?').waitFor();
    await page.getByLabel('Say').fill('A table for two.');
    await page.getByRole('button', { name: 'Send' }).click();
    const said = await peer.nextText();
    await page.getByRole('button', { name: 'Hang up' }).click();

    // Assert
    expect(said).toEqual({ type: 'say', text: 'A table for two.' });
    expect(await peer.nextText()).toEqual({ type: 'hangup' });
    peer.sendJson({ type: 'ended', reason: 'customer-ended-call' });
    await page.getByText('ended (customer-ended-call)').waitFor();
  });
});
