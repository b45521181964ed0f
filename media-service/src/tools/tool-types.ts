import type * as v from 'valibot';
import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import type { BusinessProfile } from '../../../shared/domain/business-profile';
import type { OfferedBuiltins } from '../../../shared/domain/call-script';
import type { Message } from '../../../shared/domain/message';
import type { BookingService } from '../../../shared/services/booking-service';
import type { NewMessage } from '../../../shared/services/message-service';
import type { LlmToolDefinition } from '../ports/language-model';
import type { EmailSender } from '../ports/email-sender';
import type { PaymentLinks } from '../ports/payment-links';
import type { SmsSender } from '../ports/sms-sender';
import type { TeamNotifier } from '../ports/team-notifier';
import type { CallAllowance } from './call-allowance';

/**
 * The back ends built-in tools act on, built once per process by the composition root. Each tool
 * reaches only these ports, never the call engine (docs/design.md "How a call runs tools").
 */
export interface ToolPorts {
  /** Stores a caller's message (shared/services/message-service.ts). */
  messages: { leave(businessId: number, input: NewMessage): Promise<Message> };
  team: TeamNotifier;
  /** Texts from the business's number (Twilio Messages, the sandbox carrier locally). */
  sms: SmsSender;
  /**
   * True when `sms` is the sandbox carrier (SANDBOX_CARRIER=true: the local stack and tests): then
   * numbers no numbering plan knows count as the line's region (`TextingLine.sandbox`).
   */
  smsSandbox?: boolean;
  /** Hosted payment pages (Stripe; the sandbox payment server locally); absent, no call is offered payment links (benchmarks). */
  payments?: PaymentLinks;
  /** The booking use cases the booking tools call (shared/services/booking-service.ts). */
  bookings: Pick<BookingService, 'checkAvailability' | 'book' | 'findByPhone' | 'get' | 'getRecord' | 'cancel' | 'reschedule'>;
  /** Email from the platform's verified address (SES, the local SES stand-in). */
  email: EmailSender;
}

/** What a tool knows of the call it runs on: who, for which business, and the ports. */
export interface ToolContext {
  businessId: number;
  callId: number;
  assistantId: number;
  /** The other party's number (the caller inbound, the callee outbound). */
  partyNumber: string;
  /** The business's own number on this call (the number called inbound, the caller id outbound): texts come from it. */
  businessNumber: string;
  /** What this call may still send the caller (texts, emails), shared by every tool that sends. */
  allowance: CallAllowance;
  profile: BusinessProfile | null;
  /** The business's sealed payment provider key, opened only by the payment-links adapter; undefined when it set none. */
  paymentKeySealed?: string;
  config: AssistantConfig;
  ports: ToolPorts;
  /** This tool call's number on the call (1, 2, …): with the call id, it names one invocation (idempotency keys). */
  invocation: number;
  /**
   * Bookings this call made or found with find_appointments (kept by the call's runner): besides
   * those under the caller's own number, the only ones its tools may cancel or move.
   */
  knownBookings: Set<number>;
  /** Aborted when the tool times out or the call ends; pass it to every back-end call. */
  signal: AbortSignal;
}

/** What a tool did: the JSON the model gets back, and a short summary for the call's `actions`. */
export interface ToolResult {
  /** Returned to the model as the tool's output (keep it small and plain). */
  output: Record<string, unknown>;
  /** One line for `actions[].result`, with no call content in it (ids, counts, yes/no). */
  summary: string;
}

/**
 * A built-in tool (docs/design.md "How a call runs tools"): its model-facing definition beside its handler. `offeredBy`
 * names the {@link OfferedBuiltins} flag that offers it, so the tools sent to the model and the
 * prompt's lines about them come from one decision.
 */
export interface BuiltinTool<Args = unknown> {
  definition: LlmToolDefinition;
  offeredBy: keyof OfferedBuiltins;
  /** Validates the model's arguments (models emit invalid JSON and invent fields). */
  args: v.GenericSchema<unknown, Args>;
  /** How long the handler may run before the model is told it did not answer. */
  timeoutMs: number;
  /** What the model is told, in plain words, when the back end fails or times out. */
  unavailable: string;
  execute(args: Args, context: ToolContext): Promise<ToolResult>;
}

/**
 * Thrown by a tool that will not act (a limit reached, something the call lacks): the runner tells
 * the model exactly this message, in plain words, instead of the tool's `unavailable`.
 */
export class ToolRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolRefusal';
  }
}

/**
 * What the runner can run: a built-in tool, or a business's custom tool (tools/custom-tools.ts),
 * which no builtin flag offers (the assistant's `tool_ids` do), checks its arguments against the
 * business's JSON Schema, and may have its own filler line.
 */
export interface RunnableTool<Args = unknown> extends Omit<BuiltinTool<Args>, 'offeredBy'> {
  /** A check beyond `args` (a custom tool's JSON Schema): null when the arguments pass, else plain words. */
  checkArgs?: (args: unknown) => string | null;
  /** Said instead of the standard line when this tool runs past the filler delay. */
  filler?: string;
}

/** A tool failure whose message is already plain words for the model (a custom tool's server answered 503). */
export class ToolFailureError extends Error {
  constructor(
    message: string,
    /** For logs: what kind of failure, never call content (`status_503`, `unreachable`, `blocked`). */
    readonly kind: string,
  ) {
    super(message);
    this.name = 'ToolFailureError';
  }
}
