/**
 * A real Chromium for the browser tests: Debian's `chromium` package, driven by playwright-core
 * (no browser download). Headless, with the fake microphone and camera (a beep, or a WAV file
 * given as `fakeAudioCapture`) granted without a prompt, and sound allowed without a click.
 * Each launch gets a fresh profile (playwright makes and removes a temporary --user-data-dir).
 *
 * @example
 * const browser = await launchBrowser();
 * const page = await browser.newPage();
 * // …
 * await browser.close();
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package installs the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** What a test may change about the browser. */
export interface LaunchOptions {
  /** A WAV file the fake microphone plays (looped) instead of its beep (`--use-file-for-fake-audio-capture`). */
  fakeAudioCapture?: string;
  /** More Chromium switches. */
  args?: string[];
}

/**
 * The switches: headless on Chromium's current headless mode; no sandbox (tests run as root in
 * CI containers); no GPU, QUIC, first-run page or background traffic (the machine has no
 * network); the fake media devices; and autoplay without a gesture, so a test need not click
 * before a call plays sound. Playwright is told the browser is headed so it adds none of its own
 * headless switches: one of them is --mute-audio.
 */
const SWITCHES = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

/** Launches Chromium; fails, never skips, when the package is missing. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser tests drive Debian's chromium package. Install it (apt-get install chromium); .ci/run installs it when it is missing.`,
    );
  }
  const fakeAudio = options.fakeAudioCapture ? [`--use-file-for-fake-audio-capture=${options.fakeAudioCapture}`] : [];
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: false,
    args: [...SWITCHES, ...fakeAudio, ...(options.args ?? [])],
  });
}
