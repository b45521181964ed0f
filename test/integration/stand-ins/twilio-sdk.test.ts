import type twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxCarrier } from '../../../media-service/src/sandbox/carrier';
import { silentLogger } from '../../../shared/log';
import { loopbackTwilio } from '../../support/twilio-loopback';

/**
 * The sandbox carrier answers the official `twilio` SDK as Twilio does: calls and texts listed
 * page by page (`calls.list`, `messages.list`, filters, `next_page_uri`), and a `To` that is not a
 * phone number refused with 21211 in Twilio's error body.
 */

let carrier: SandboxCarrier;
let client: ReturnType<typeof twilio>;

beforeAll(async () => {
  carrier = await SandboxCarrier.start({ log: silentLogger });
  client = loopbackTwilio(carrier.accountSid, carrier.authToken, carrier.baseUrl);
});

afterAll(async () => {
  await carrier?.close();
});

const FROM = '+15550100001';
let next = 0;
/** A number no other test of this file uses. */
const freshNumber = () => `+1415555${String(1000 + next++).padStart(4, '0')}`;
const HANG_UP = '<Response><Hangup/></Response>';

describe('sandbox carrier lists, with the official twilio SDK', () => {
  it('messages.list: the texts to a number, newest first, followed across pages', async () => {
    // Arrange
    const number = freshNumber();
    for (const body of ['one', 'two', 'three']) await client.messages.create({ to: number, from: FROM, body });
    await client.messages.create({ to: freshNumber(), from: FROM, body: 'someone else' });
    // Act
    const listed = await client.messages.list({ to: number, pageSize: 2 });
    const firstPage = await client.messages.page({ to: number, pageSize: 2 });
    // Assert
    expect(listed.map((message) => [message.to, message.body])).toEqual([
      [number, 'three'],
      [number, 'two'],
      [number, 'one'],
    ]);
    expect(listed[0]!.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(listed[0]!.dateCreated).toBeInstanceOf(Date);
    expect(firstPage.instances).toHaveLength(2);
    expect(firstPage.nextPageUrl).toContain('Page=1');
  });

  it('calls.list: the calls to a number (and by status), newest first', async () => {
    // Arrange
    const number = freshNumber();
    const first = await client.calls.create({ to: number, from: FROM, twiml: HANG_UP });
    const second = await client.calls.create({ to: number, from: FROM, twiml: HANG_UP });
    await Promise.all([carrier.whenEnded(first.sid), carrier.whenEnded(second.sid)]);
    // Act
    const listed = await client.calls.list({ to: number });
    const completed = await client.calls.list({ to: number, status: 'completed' });
    const busy = await client.calls.list({ to: number, status: 'busy' });
    // Assert
    expect(listed.map((call) => call.sid)).toEqual([second.sid, first.sid]);
    expect(listed[0]).toMatchObject({ to: number, from: FROM, status: 'completed', direction: 'outbound-api' });
    expect(completed).toHaveLength(2);
    expect(busy).toEqual([]);
  });

  it('an empty list is an empty page, not a 404', async () => {
    await expect(client.messages.list({ to: freshNumber() })).resolves.toEqual([]);
    await expect(client.calls.list({ to: freshNumber() })).resolves.toEqual([]);
  });
});

describe('sandbox carrier refusals, with the official twilio SDK', () => {
  it.each(['555-0100', '+0123', 'client:alice', '+1415555abcd'])(
    'calls.create to %j: 400 code 21211 in Twilio’s error body, and no call',
    async (to) => {
      // Arrange
      const before = carrier.calls().length;
      // Act
      const error = await client.calls.create({ to, from: FROM, twiml: HANG_UP }).catch((e: unknown) => e);
      // Assert
      expect(error).toMatchObject({
        status: 400,
        code: 21211,
        message: expect.stringContaining("Invalid 'To' Phone Number"),
        moreInfo: 'https://www.twilio.com/docs/errors/21211',
      });
      expect(carrier.calls()).toHaveLength(before);
    },
  );

  it('the raw error body has exactly Twilio’s fields: code, message, more_info, status', async () => {
    const response = await fetch(`${carrier.baseUrl}/2010-04-01/Accounts/${carrier.accountSid}/Calls.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${carrier.accountSid}:${carrier.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: '12', From: FROM, Twiml: HANG_UP }).toString(),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 21211,
      message: "Invalid 'To' Phone Number: 12",
      more_info: 'https://www.twilio.com/docs/errors/21211',
      status: 400,
    });
  });
});
