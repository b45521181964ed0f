import { describe, expect, it } from 'vitest';
import { CallAllowance } from '../../../../media-service/src/tools/call-allowance';
import { CONTACT_LIMITS } from '../../../../shared/domain/caller-contact';

describe('CallAllowance', () => {
  it.each([
    ['text', CONTACT_LIMITS.textsPerCall],
    ['email', CONTACT_LIMITS.emailsPerCall],
    ['team', CONTACT_LIMITS.teamNoticesPerCall],
  ] as const)('allows %s sends up to the per-call limit (%i), and counts each kind apart', (kind, limit) => {
    // Arrange
    const allowance = new CallAllowance();
    // Act
    const taken = Array.from({ length: limit + 1 }, () => allowance.take(kind));
    // Assert
    expect(taken).toEqual([...Array<boolean>(limit).fill(true), false]);
    expect(allowance.left(kind)).toBe(0);
    expect(allowance.left(kind === 'text' ? 'email' : 'text')).toBeGreaterThan(0);
  });

  it('a send given back (the provider refused it) can be taken again', () => {
    const allowance = new CallAllowance();
    for (let i = 0; i < CONTACT_LIMITS.textsPerCall; i++) allowance.take('text');
    allowance.giveBack('text');
    expect(allowance.take('text')).toBe(true);
    expect(allowance.take('text')).toBe(false);
  });
});
