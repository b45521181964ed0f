import { afterEach, describe, expect, it } from 'vitest';
import { routeOf } from '../../../media-service/src/sandbox/carrier-rest';
import { SandboxCarrier } from '../../../media-service/src/sandbox/carrier';
import { TranscriptBoard } from '../../../media-service/src/sandbox/transcript-board';
import { boardTypedSpeech, carrierTypedSpeech, NO_TYPED_SPEECH } from '../../../media-service/src/server/typed-speech';
import { originAllowed } from '../../../media-service/src/server/web-call-upgrade';
import { speechDurationMs } from '../../../media-service/src/audio/tone';

const carriers: SandboxCarrier[] = [];
afterEach(async () => {
  for (const carrier of carriers.splice(0)) await carrier.close();
});

describe('typed speech', () => {
  it('writes the line on the board under the tag and returns speech-like audio of its length', async () => {
    // Arrange
    const board = new TranscriptBoard();
    // Act
    const audio = await boardTypedSpeech(board).say('WC1', 'Hi, what are your hours?');
    // Assert
    expect(board.next('WC1')).toBe('Hi, what are your hours?');
    expect(audio).toBeInstanceOf(Uint8Array);
    expect((audio as Uint8Array).length).toBe(speechDurationMs('Hi, what are your hours?') * 8);
  });

  it("reaches the board of another process through the sandbox carrier's POST /sandbox/board/{tag}, with its Basic auth", async () => {
    // Arrange
    const board = new TranscriptBoard();
    const carrier = await SandboxCarrier.start({ utterances: board });
    carriers.push(carrier);
    const account = { baseUrl: carrier.baseUrl, accountSid: carrier.accountSid, authToken: carrier.authToken };
    // Act
    const said = await carrierTypedSpeech(account).say('WCabc', 'Thanks, bye');
    const forged = await carrierTypedSpeech({ ...account, authToken: 'wrong' }).say('WCabc', 'Not this');
    // Assert
    expect(said).toBeInstanceOf(Uint8Array);
    expect(forged).toEqual({ refused: 'The sandbox board refused the line (HTTP 401).' });
    expect(board.pending('WCabc')).toEqual(['Thanks, bye']);
  });

  it('is refused in words with real providers', async () => {
    expect(await NO_TYPED_SPEECH.say('WC1', 'hi')).toEqual({ refused: expect.stringContaining('needs the sandbox') });
  });

  it('routes only POST /sandbox/board/{tag} with a tag of 1-64 safe characters', () => {
    expect(routeOf('POST', '/sandbox/board/WCabc')).toEqual({ kind: 'sandbox-board', tag: 'WCabc' });
    expect(routeOf('GET', '/sandbox/board/WCabc').kind).toBe('unknown');
    expect(routeOf('POST', `/sandbox/board/${'a'.repeat(65)}`).kind).toBe('unknown');
    expect(routeOf('POST', '/sandbox/board/a%2Fb').kind).toBe('unknown');
  });
});

describe('web call origins', () => {
  const listed = ['https://shop.example.com'];
  it.each([
    ['https://shop.example.com', listed, true],
    ['HTTPS://SHOP.EXAMPLE.COM', listed, true],
    ['http://localhost:3000', listed, true],
    ['https://shop.example.com:8443', listed, false],
    ['https://evil.example.com', listed, false],
    ['null', listed, false],
    ['https://shop.example.com', [], false],
  ])('%s for %j: %s', (origin, webOrigins, allowed) => {
    expect(originAllowed(origin, webOrigins, ['http://localhost:3000'])).toBe(allowed);
  });
});
