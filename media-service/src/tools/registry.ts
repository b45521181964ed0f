import type { AssistantConfig } from '../../../shared/domain/assistant-config';
import type { BusinessProfile } from '../../../shared/domain/business-profile';
import { offeredBuiltins, type CallBackEnds, type OfferedBuiltins } from '../../../shared/domain/call-script';
import type { LlmToolDefinition } from '../ports/language-model';
import { bookAppointment } from './book-appointment';
import { cancelAppointment } from './cancel-appointment';
import { checkAvailability } from './check-availability';
import { findAppointments } from './find-appointments';
import { emailCaller } from './email-caller';
import { notifyTeam } from './notify-team';
import { rescheduleAppointment } from './reschedule-appointment';
import { sendPaymentLink } from './send-payment-link';
import { sendSms } from './send-sms';
import { takeMessage } from './take-message';
import type { BuiltinTool } from './tool-types';

/** A tool the call engine itself carries out (it changes the call), offered by the same flags. */
interface CallControlTool {
  offeredBy: keyof OfferedBuiltins;
  definition: LlmToolDefinition;
}

/** `end_call` and `transfer`: the call policy acts on them once the reply has played. */
const CALL_CONTROL_TOOLS: readonly CallControlTool[] = [
  {
    offeredBy: 'endCall',
    definition: {
      name: 'end_call',
      description: 'Hang up the call. Use it only after the conversation is finished and you have said goodbye.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
  {
    offeredBy: 'transfer',
    definition: {
      name: 'transfer',
      description: 'Transfer the caller to a person on the team. Tell the caller you are transferring them first.',
      parameters: {
        type: 'object',
        properties: { reason: { type: 'string', description: 'Why the caller needs a person.' } },
        additionalProperties: false,
      },
    },
  },
];

/**
 * The built-in tools that run a back end, one module each. Adding one (send_sms, …) is a module exporting a {@link BuiltinTool}, its flag in
 * `offeredBuiltins` (with its prompt line), its name in `ACTION_TOOL_NAMES` (shared/domain/tool.ts), and an entry here.
 */
export const ACTION_TOOLS: readonly BuiltinTool<any>[] = [
  takeMessage,
  notifyTeam,
  checkAvailability,
  bookAppointment,
  findAppointments,
  cancelAppointment,
  rescheduleAppointment,
  sendSms,
  emailCaller,
  sendPaymentLink,
];

/** What one call offers: the definitions sent to the model, and the tools the runner may execute. */
export interface OfferedTools {
  definitions: LlmToolDefinition[];
  actions: BuiltinTool<any>[];
}

/**
 * The tools a call offers, from the one decision (`offeredBuiltins`) the prompt's lines come from,
 * so the prompt names exactly the tools the model has.
 */
export function offeredTools(config: AssistantConfig, profile: BusinessProfile | null, backEnds: Partial<CallBackEnds> = {}): OfferedTools {
  const offered = offeredBuiltins(config, profile, backEnds);
  const actions = ACTION_TOOLS.filter((tool) => offered[tool.offeredBy]);
  const control = CALL_CONTROL_TOOLS.filter((tool) => offered[tool.offeredBy]);
  return { definitions: [...control, ...actions].map((tool) => tool.definition), actions };
}
