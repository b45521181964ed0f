import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { callScripted, endedByAssistant, endedByCaller, QUIET, waitForAssistant } from '../../support/call-scenarios';
import { startCallStack, type CallStack } from '../../support/call-stack';

/**
 * Two call-engine processes behind a round-robin proxy, as behind the load balancer: a call's
 * stream runs on one, while the carrier's callbacks (status, AMD) alternate between both. Every
 * call must still end once, by its own session, with its transcript, metrics and true reason.
 */

let stack: CallStack;

beforeAll(async () => {
  stack = await startCallStack({ tasks: 2 });
});

afterAll(async () => {
  await stack?.stop();
});

const byAssistant = endedByAssistant;
const byCaller = endedByCaller;
const byLimit = () => [waitForAssistant(), step.silence()];

describe('two call-engine processes', () => {
  it(
    'every call keeps its transcript, metrics and true ended_reason whichever process its callbacks reach',
    { timeout: 90_000 },
    async () => {
      // Arrange
      const config = { first_message: 'Hello, this is Acme.', advanced: { ...QUIET, max_duration_s: 30, silence_timeout_s: 120 } };
      const plans = [
        ['assistant_ended', byAssistant()],
        ['assistant_ended', byAssistant()],
        ['assistant_ended', byAssistant()],
        ['caller_hung_up', byCaller()],
        ['caller_hung_up', byCaller()],
        ['max_duration', byLimit()],
      ] as const;
      // Act
      const placed = await Promise.all(plans.map(([, steps]) => callScripted(stack, config, steps)));
      const ended = await Promise.all(placed.map(({ tenant, callId }) => stack.whenCallEnded(tenant.businessId, callId, 80_000)));
      // Assert
      expect(stack.proxy!.counts.every((count) => count > 0)).toBe(true);
      ended.forEach(({ call, detail }, i) => {
        const [reason] = plans[i]!;
        expect(call.ended_reason, `call ${call.id}`).toBe(reason);
        expect(detail.transcript[0], `call ${call.id}`).toMatchObject({ role: 'assistant', text: 'Hello, this is Acme.' });
        expect((detail.metrics as { duration_s?: number }).duration_s, `call ${call.id}`).toBeGreaterThan(0);
      });
    },
  );
});
