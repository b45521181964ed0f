import type * as v from 'valibot';
import { businessName } from '../../../shared/domain/business-profile';
import { CONTACT_LIMITS, EmailCallerArgsSchema } from '../../../shared/domain/caller-contact';
import { teamEmails } from '../../../shared/domain/call-script';
import { withAllowance } from './call-allowance';
import type { BuiltinTool } from './tool-types';

type Args = v.InferOutput<typeof EmailCallerArgsSchema>;

/**
 * `email_caller` (builtin `email_caller`): emails the caller at the address they gave, from the
 * platform's address under the business's name, replies going to the team's first address. The
 * address came through speech recognition, so the description makes the model spell it back and
 * hear a yes first; at most `CONTACT_LIMITS.emailsPerCall` emails per call.
 */
export const emailCaller: BuiltinTool<Args> = {
  offeredBy: 'emailCaller',
  definition: {
    name: 'email_caller',
    description:
      'Email the caller something they asked to have in writing. First ask for their email address, then spell it back to them ' +
      'letter by letter and wait until they confirm it is right; only then call this tool. Write a short, plain subject and body. ' +
      `At most ${CONTACT_LIMITS.emailsPerCall} emails per call. Tell the caller the email was sent only after this tool succeeds.`,
    parameters: {
      type: 'object',
      properties: {
        email: { type: 'string', description: 'The address the caller confirmed, like name@example.com.', maxLength: 254 },
        subject: { type: 'string', description: 'A short subject line.', maxLength: CONTACT_LIMITS.emailSubjectMaxChars },
        body: { type: 'string', description: 'The email text, complete in itself.', maxLength: CONTACT_LIMITS.emailBodyMaxChars },
      },
      required: ['email', 'subject', 'body'],
      additionalProperties: false,
    },
  },
  args: EmailCallerArgsSchema,
  timeoutMs: 10_000,
  unavailable: 'The email could not be sent just now. Tell the caller, and offer to read the details out instead.',
  async execute(args, context) {
    const name = businessName(context.profile);
    const replyTo = teamEmails(context.profile)[0];
    const sent = await withAllowance(context, 'email', () =>
      context.ports.email.send(
        {
          to: [args.email],
          ...(name && { fromName: name }),
          ...(replyTo && { replyTo }),
          subject: args.subject,
          text: `${args.body}\n\n--\nSent at your request during your call${name ? ` with ${name}` : ''}.`,
        },
        context.signal,
      ),
    );
    return { output: { sent: true, emails_left: context.allowance.left('email') }, summary: `email ${sent.id} sent` };
  },
};
