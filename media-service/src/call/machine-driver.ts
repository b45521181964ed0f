import type { EndedReason, TranscriptEntry } from '../../../shared/domain/call';
import type { AnsweredBy } from '../ports/telephony';
import type { CallMachine, NoticeOutcome } from './call-machine';
import type { NamedCall } from './rules/call-types';
import type { ConversationDriver } from './session-types';

/**
 * The part of a {@link ConversationDriver} that is the call machine's alone (ending, keypad,
 * answering machines, transcript, notices): every conversation kind inherits it, so none
 * re-implements it.
 */
export abstract class MachineDriver<Call extends NamedCall> implements Pick<
  ConversationDriver,
  'pendingReason' | 'onDtmf' | 'onAmd' | 'endCall' | 'transcript' | 'notices'
> {
  protected abstract readonly machine: CallMachine<Call>;

  get pendingReason(): EndedReason | undefined {
    return this.machine.pendingReason;
  }

  onDtmf(digit: string): void {
    this.machine.onDtmf(digit);
  }

  onAmd(answeredBy: AnsweredBy): void {
    this.machine.onAmd(answeredBy);
  }

  endCall(reason: EndedReason, options: { goodbye: boolean }): Promise<void> {
    return this.machine.endCall(reason, options);
  }

  transcript(): TranscriptEntry[] {
    return this.machine.transcript();
  }

  notices(): NoticeOutcome {
    return this.machine.notices();
  }
}
