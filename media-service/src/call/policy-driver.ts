import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import type { AnsweredBy } from '../ports/telephony';
import type { CallPolicy, NamedCall } from './call-policy';
import type { NoticeOutcome } from './notice';
import type { ConversationDriver } from './session-types';

/**
 * The part of a {@link ConversationDriver} that is the call policy's alone (ending, keypad,
 * voicemail, transcript): every conversation kind inherits it, so none re-implements it.
 */
export abstract class PolicyDriver<Call extends NamedCall> implements Pick<
  ConversationDriver,
  'pendingReason' | 'onDtmf' | 'onAmd' | 'endCall' | 'transcript' | 'notices'
> {
  protected abstract readonly policy: CallPolicy<Call>;

  get pendingReason(): EndedReason | undefined {
    return this.policy.pendingReason;
  }

  onDtmf(digit: string): void {
    this.policy.press(digit);
  }

  onAmd(answeredBy: AnsweredBy): void {
    this.policy.onAmd(answeredBy);
  }

  endCall(reason: EndedReason, options: { goodbye: boolean }): Promise<void> {
    return this.policy.endCall(reason, options);
  }

  transcript(): TranscriptEntry[] {
    return this.policy.transcript();
  }

  /** Null on a voicemail: nobody was there to hear a notice (docs/decisions.md "What a voicemail owes the law"). */
  notices(): NoticeOutcome {
    if (this.policy.pendingReason === 'voicemail') return { recording_notice_heard: null, ai_disclosure_heard: null };
    return this.policy.notice.outcome();
  }
}
