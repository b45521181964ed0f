import type * as v from 'valibot';
import { CONTACT_LIMITS } from '../../../shared/domain/caller-contact';
import { NotifyTeamArgsSchema } from '../../../shared/domain/message';
import { tellTeam, toldSummary } from './tell-team';
import { ToolRefusal, type BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof NotifyTeamArgsSchema>;

/**
 * `notify_team` (builtin `team_messages`): tells the team now (an urgent matter, a caller who
 * insists on a person when no transfer is possible). Offered only when the profile has a team
 * email or phone to tell; the notice is also stored as a message, so it is listed with the call.
 */
export const notifyTeam: BuiltinTool<Args> = {
  offeredBy: 'notifyTeam',
  definition: {
    name: 'notify_team',
    description:
      "Alert the business's team right now about something that cannot wait: an urgent problem, or a caller who insists on a person " +
      'when you cannot transfer. Say in the message what happened and what the caller needs. Tell the caller the team was alerted only ' +
      'after this tool succeeds; do not promise when they will call back.',
    parameters: {
      type: 'object',
      properties: {
        message: { type: 'string', description: 'What the team needs to know and do.', maxLength: 2000 },
        urgent: { type: 'boolean', description: 'True when it cannot wait.' },
      },
      required: ['message'],
      additionalProperties: false,
    },
  },
  args: NotifyTeamArgsSchema,
  // The store (~10 ms) and the team notice (at most TEAM_NOTICE_TIMEOUT_MS, 4 s).
  timeoutMs: 10_000,
  unavailable: 'The team could not be reached just now. Tell the caller, and offer to take a message instead.',
  async execute(args, context) {
    const message = await context.ports.messages.leave(context.businessId, {
      call_id: context.callId,
      assistant_id: context.assistantId,
      caller_name: '',
      caller_number: context.partyNumber,
      body: args.message,
      urgent: args.urgent,
      source: 'notify_team',
    });
    const told = await tellTeam(context, message, 'A caller needs the team');
    if (told.limited)
      throw new ToolRefusal(
        `The team has already been alerted ${CONTACT_LIMITS.teamNoticesPerCall} times on this call, the most one call may; this one is saved with the others. Tell the caller the team has their messages.`,
      );
    if (!told.told)
      throw new ToolRefusal(
        'The alert was saved for the team, but it could not be sent to them just now. Tell the caller honestly, and do not promise when they will hear back.',
      );
    return {
      output: { team_notified: true, message_id: message.id, team_email: told.email, team_text: told.sms },
      summary: `message ${message.id} saved; ${toldSummary(told)}`,
    };
  },
};
