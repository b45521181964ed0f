import { describe, expect, it } from 'vitest';
import type { ConversationBaseDeps } from '../../../../media-service/src/call/session-types';
import type { TimerSet } from '../../../../media-service/src/call/timer-set';
import { transferCall } from '../../../../media-service/src/call/transfer';
import type { CallRecord } from '../../../../media-service/src/ports/call-records';
import { captureLogger } from '../../../support/capture-logger';

/** The transfer's steps in order: what it stored, asked the carrier, and armed. */
function rig(carrier: 'redirects' | 'refuses') {
  const steps: string[] = [];
  const { log } = captureLogger();
  const deps = {
    context: {
      call: { id: 7, business_id: 1, direction: 'inbound', to_number: '+15550100001' } as CallRecord,
      transferNumber: '+15550100999',
    },
    lifecycle: {
      markTransferred: (_b: number, _c: number, to: string) => (steps.push(`mark ${to}`), Promise.resolve()),
      transferFailed: (_b: number, _c: number, to: string) => (steps.push(`take back ${to}`), Promise.resolve()),
    },
    telephony: {
      transfer: (sid: string, to: string) => {
        steps.push(`carrier ${sid} → ${to}`);
        return carrier === 'redirects' ? Promise.resolve() : Promise.reject(new Error('A web call has no phone line to transfer'));
      },
    },
    callSid: 'WC1',
    log,
    finish: () => undefined,
  } as unknown as ConversationBaseDeps;
  const timers = { set: (name: string) => void steps.push(`timer ${name}`) } as unknown as TimerSet;
  return { deps, timers, steps };
}

describe('transferCall', () => {
  it('stores the transfer before asking the carrier, then waits for the carrier to end the leg', async () => {
    const { deps, timers, steps } = rig('redirects');
    // Act
    const ok = await transferCall(deps, timers);
    // Assert
    expect(ok).toBe(true);
    expect(steps).toEqual(['mark +15550100999', 'carrier WC1 → +15550100999', 'timer transfer']);
  });

  it('takes the stored transfer back when the carrier refuses (a web call has none)', async () => {
    const { deps, timers, steps } = rig('refuses');
    // Act
    const ok = await transferCall(deps, timers);
    // Assert
    expect(ok).toBe(false);
    expect(steps).toEqual(['mark +15550100999', 'carrier WC1 → +15550100999', 'take back +15550100999']);
  });
});
