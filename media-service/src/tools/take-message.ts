import type * as v from 'valibot';
import { callbackNumber, TakeMessageArgsSchema } from '../../../shared/domain/message';
import { tellTeam, toldSummary } from './tell-team';
import type { BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof TakeMessageArgsSchema>;

/**
 * `take_message` (builtin `messages`): stores the caller's message, linked to the call, then tells
 * the team (profile `team_emails` by email, `team_phones` by text). The stored message is what
 * counts: when a notice fails the model still hears the message was saved, and which channel did
 * not reach the team.
 */
export const takeMessage: BuiltinTool<Args> = {
  offeredBy: 'takeMessage',
  definition: {
    name: 'take_message',
    description:
      "Leave a message for the business's team from the caller. Use it when the caller wants to leave a message, or when you cannot help " +
      'and someone should call them back. First collect their name and the message and read both back to confirm; ask for a callback ' +
      'number only if it differs from the line they are calling from. Tell the caller the message was passed on only after this tool succeeds.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: "The caller's name, as they gave it.", maxLength: 200 },
        message: { type: 'string', description: "The message in the caller's words, complete enough to act on.", maxLength: 2000 },
        phone: {
          type: 'string',
          description: 'A callback number the caller gave, when not the line they are calling from.',
          maxLength: 40,
        },
        urgent: { type: 'boolean', description: 'True when the caller says it is urgent.' },
      },
      required: ['name', 'message'],
      additionalProperties: false,
    },
  },
  args: TakeMessageArgsSchema,
  // The store (~10 ms) and the team notice (at most TEAM_NOTICE_TIMEOUT_MS, 4 s).
  timeoutMs: 10_000,
  unavailable: 'The message system did not answer, so the message was not saved. Apologise, and ask the caller to call back later.',
  async execute(args, context) {
    const message = await context.ports.messages.leave(context.businessId, {
      call_id: context.callId,
      assistant_id: context.assistantId,
      caller_name: args.name,
      caller_number: callbackNumber(args.phone, context.partyNumber),
      body: args.message,
      urgent: args.urgent,
      source: 'take_message',
    });
    const told = await tellTeam(context, message, `Message from ${args.name}`);
    return {
      output: { saved: true, message_id: message.id, team_notified: told.told, team_email: told.email, team_text: told.sms },
      summary: `message ${message.id} saved; ${toldSummary(told)}`,
    };
  },
};
