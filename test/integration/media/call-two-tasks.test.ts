import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../../media-service/src/sandbox/scenario-script';
import { CALL_TEST_MS } from '../../support/call-limits';
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
    { timeout: CALL_TEST_MS },
    async () => {
      // Arrange
      // Only the call that waits for the limit has a short one: the others end by their own script, which on a
      // machine busy with other work can take longer than 30 s (the reason under test is whoever ended the call).
      const config = (maxDurationS: number) => ({
        first_message: 'Hello, this is Acme.',
        advanced: { ...QUIET, max_duration_s: maxDurationS, silence_timeout_s: 120 },
      });
      const plans = [
        ['assistant_ended', byAssistant(), 120],
        ['assistant_ended', byAssistant(), 120],
        ['assistant_ended', byAssistant(), 120],
        ['caller_hung_up', byCaller(), 120],
        ['caller_hung_up', byCaller(), 120],
        ['max_duration', byLimit(), 30],
      ] as const;
      // Act
      const placed = await Promise.all(plans.map(([, steps, maxDurationS]) => callScripted(stack, config(maxDurationS), steps)));
      const ended = await Promise.all(placed.map(({ tenant, callId }) => stack.whenCallEnded(tenant.businessId, callId)));
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
