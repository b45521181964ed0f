import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDING_LINK_TTL_S } from '../../../functions/lib/recording-links';
import { createDeliveryDeps } from '../../../functions/webhook-delivery/deps';

// Presigning is computed locally, but the SDK resolves credentials first: give it static ones so it
// never looks further (no instance-metadata request).
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
});
afterAll(() => {
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', saved.id],
    ['AWS_SECRET_ACCESS_KEY', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const CONFIG = { TABLE_NAME: 't', WEBHOOK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/1/q', KMS_KEY_ID: 'k', AWS_REGION: 'us-east-1' };

describe('webhook delivery on AWS: recording links', () => {
  it('are the API’s 15-minute links (they were 1 hour, from a second presigner)', async () => {
    // Arrange
    const deps = createDeliveryDeps({ ...CONFIG, RECORDINGS_BUCKET: 'recordings' });
    // Act
    const url = new URL((await deps.recordingUrl!('BIZ/1/calls/2.wav'))!);
    // Assert
    expect(RECORDING_LINK_TTL_S).toBe(900);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.pathname).toContain('BIZ/1/calls/2.wav');
  });

  it('are absent when no recordings bucket is configured', () => {
    expect(createDeliveryDeps(CONFIG).recordingUrl).toBeUndefined();
  });
});
