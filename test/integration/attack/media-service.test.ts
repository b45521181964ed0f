import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { twilioSignature } from '../../../media-service/src/telephony/twilio-signature';
import { CALL_HANG_MS, CALL_TEST_MS } from '../../support/call-limits';
import { callScripted, carrierCall, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Attack suite, the media service from outside: oversized bodies and WebSocket messages, and a
 * second Media Stream that replays a live call's stream exactly (same signed token, same carrier
 * call sid, valid handshake signature).
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack();
});

afterAll(async () => {
  await stack?.stop();
});

/** The carrier's record of the call the dialler places to `to` (it arrives through the queue). */
async function placedTo(to: string, timeoutMs = CALL_HANG_MS) {
  const started = Date.now();
  for (;;) {
    const found = stack.carrier.calls().find((call) => call.to === to);
    if (found) return carrierCall(stack, to);
    if (Date.now() - started > timeoutMs) throw new Error(`no call to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Opens a signed stream and replays `start`; resolves with the close code and the media messages it got. */
function replayStream(callSid: string, parameters: Record<string, string>) {
  const base = `ws://127.0.0.1:${stack.media.port}`;
  const signature = twilioSignature(stack.carrier.authToken, `${base}/twilio/media`);
  const ws = new WebSocket(`${base}/twilio/media`, { headers: { 'x-twilio-signature': signature } });
  const media: unknown[] = [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { event?: string };
    if (message.event === 'media') media.push(message);
  });
  ws.on('open', () => {
    ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    const start = {
      accountSid: stack.carrier.accountSid,
      streamSid: 'MZreplay',
      callSid,
      tracks: ['inbound'],
      customParameters: parameters,
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
    };
    ws.send(JSON.stringify({ event: 'start', sequenceNumber: '1', start, streamSid: 'MZreplay' }));
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return { closed, media };
}

describe('attack: a second media stream on a live call', () => {
  it('is closed 1008 and hears nothing, while the first stream keeps the call', { timeout: CALL_TEST_MS }, async () => {
    // Arrange: a live call whose callee listens to the greeting, then stays on the line.
    const steps = [waitForAssistant(), step.pause(4_000), step.say('Thanks, goodbye!'), waitForAssistant(), step.hangup()];
    const { tenant, callId, to } = await callScripted(stack, { first_message: 'Hello from Acme.', advanced: QUIET }, steps);
    const sid = (await placedTo(to)).sid;
    const live = await stack.carrier.waitFor(
      sid,
      (call) => call.streams.length > 0 && call.streams[0]!.audioChunks.length > 0,
      CALL_HANG_MS,
    );
    const original = live.streams[0]!.customParameters;
    // Act
    const replay = replayStream(sid, original);
    const code = await replay.closed;
    // Assert
    expect(code).toBe(1008);
    expect(replay.media).toEqual([]);
    expect(stack.media.registry.get(callId)).toBeDefined();
    expect(stack.logs.some((log) => log.message === 'call.session.refused' && log.fields?.reason === 'already_attached')).toBe(true);
    const { call, detail } = await stack.whenCallEnded(tenant.businessId, callId);
    expect(['assistant_ended', 'caller_hung_up']).toContain(call.ended_reason);
    expect(detail.transcript.some((entry) => entry.role === 'user' && entry.text.includes('goodbye'))).toBe(true);
  });
});

/**
 * Sends a request head, then body chunks as fast as the socket takes them, until the server
 * answers or `limit` bytes went out. Returns the status line and how many body bytes were sent.
 */
function floodBody(path: string, headers: Record<string, string>, limit: number, chunked: boolean) {
  return new Promise<{ statusLine: string; sent: number }>((resolve, reject) => {
    const socket = connect(stack.media.port, '127.0.0.1');
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let answer = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ statusLine: answer.split('\r\n')[0] ?? '', sent });
    };
    const pump = () => {
      while (!done && sent < limit) {
        const frame = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        sent += chunk.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
    };
    socket.on('data', (data) => {
      answer += data.toString('latin1');
      if (answer.includes('\r\n\r\n')) finish();
    });
    socket.on('close', finish);
    socket.on('error', (error) => (done ? undefined : answer ? finish() : reject(error)));
    socket.on('connect', () => {
      const head = Object.entries({
        host: `127.0.0.1:${stack.media.port}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      })
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
      pump();
    });
  });
}

describe('attack: oversized bodies to the media service', () => {
  const HUGE = 300 * 1024 * 1024;

  it('refuses an unsigned 300 MB voice webhook with 413 before reading it', { timeout: CALL_TEST_MS }, async () => {
    // Act
    const { statusLine, sent } = await floodBody('/twilio/voice', { 'content-length': String(HUGE) }, HUGE, false);
    // Assert: the answer came while the client had sent a sliver of the body (socket buffers only).
    expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(sent).toBeLessThan(HUGE / 20);
  });

  it('refuses a chunked body once it passes 64 KiB, without reading the rest', { timeout: CALL_TEST_MS }, async () => {
    // Act
    const { statusLine, sent } = await floodBody('/twilio/status/1/1', { 'transfer-encoding': 'chunked' }, HUGE, true);
    // Assert
    expect(statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(sent).toBeLessThan(HUGE / 20);
  });

  it('still serves a normal signed callback after the floods', async () => {
    // Act
    const health = await fetch(`http://127.0.0.1:${stack.media.port}/health`);
    // Assert
    expect(health.status).toBe(200);
  });

  it('closes a media stream that sends a message over 64 KiB (1009) and starts no session', async () => {
    // Arrange
    const base = `ws://127.0.0.1:${stack.media.port}`;
    const signature = twilioSignature(stack.carrier.authToken, `${base}/twilio/media`);
    const ws = new WebSocket(`${base}/twilio/media`, { headers: { 'x-twilio-signature': signature } });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('error', () => undefined);
    await new Promise((resolve) => ws.once('open', resolve));
    const sessionsBefore = stack.media.registry.size;
    // Act
    ws.send(JSON.stringify({ event: 'connected', padding: 'x'.repeat(65 * 1024) }));
    // Assert
    expect(await closed).toBe(1009);
    expect(stack.media.registry.size).toBe(sessionsBefore);
  });
});

describe('attack: forged Twilio requests', () => {
  it('refuses a voice webhook signed with the old public sandbox token (the carrier token is random now)', async () => {
    // Arrange
    const url = `http://127.0.0.1:${stack.media.port}/twilio/voice`;
    const form = { CallSid: 'CAforged', From: '+14155550100', To: '+15550100001', CallStatus: 'ringing', Direction: 'inbound' };
    // Act
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature('sandbox-auth-token', url, form),
      },
      body: new URLSearchParams(form).toString(),
    });
    // Assert
    expect(stack.carrier.authToken).not.toBe('sandbox-auth-token');
    expect(response.status).toBe(403);
  });
});
