import { describe, expect, it } from 'vitest';
import { CachingSecretBox, LocalSecretBox, type SecretBox } from '../../../shared/security/secret-box';

/** A box that counts how often it is asked to open. */
function counting(inner: SecretBox) {
  const box = {
    opens: 0,
    seal: inner.seal.bind(inner),
    open: async (sealed: string, context: Record<string, string>) => (box.opens++, inner.open(sealed, context)),
  };
  return box;
}

describe('CachingSecretBox', () => {
  it('opens a sealed secret once per ttl, then again after it', async () => {
    // Arrange
    let now = 0;
    const inner = counting(new LocalSecretBox('test'));
    const box = new CachingSecretBox(inner, { ttlMs: 1000, now: () => now });
    const sealed = await box.seal('whsec_abc', { business_id: '1' });
    // Act
    const first = await box.open(sealed, { business_id: '1' });
    const second = await box.open(sealed, { business_id: '1' });
    now = 1001;
    const third = await box.open(sealed, { business_id: '1' });
    // Assert
    expect([first, second, third]).toEqual(['whsec_abc', 'whsec_abc', 'whsec_abc']);
    expect(inner.opens).toBe(2);
  });

  it('never serves a secret for another context, and lets a wrong context fail as the box does', async () => {
    // Arrange
    const inner = counting(new LocalSecretBox('test'));
    const box = new CachingSecretBox(inner);
    const sealed = await box.seal('whsec_abc', { business_id: '1' });
    await box.open(sealed, { business_id: '1' });
    // Act / Assert
    await expect(box.open(sealed, { business_id: '2' })).rejects.toThrow();
  });

  it('holds at most maxEntries secrets', async () => {
    // Arrange
    const inner = counting(new LocalSecretBox('test'));
    const box = new CachingSecretBox(inner, { maxEntries: 2 });
    const sealed = await Promise.all(['a', 'b', 'c'].map((secret) => box.seal(secret, { business_id: secret })));
    // Act
    for (const [i, secret] of ['a', 'b', 'c'].entries()) await box.open(sealed[i]!, { business_id: secret });
    await box.open(sealed[0]!, { business_id: 'a' });
    // Assert: 'a' was dropped to make room for 'c', so it was opened again
    expect(inner.opens).toBe(4);
  });
});
