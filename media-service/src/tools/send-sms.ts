import type * as v from 'valibot';
import { businessName } from '../../../shared/domain/business-profile';
import { CONTACT_LIMITS, isTextableNumber, SendSmsArgsSchema } from '../../../shared/domain/caller-contact';
import { textRefusal, type TextingLine } from '../../../shared/phone/texting';
import { withAllowance } from './call-allowance';
import { ToolRefusal, type BuiltinTool, type ToolContext } from './tool-types';

type Args = v.InferOutput<typeof SendSmsArgsSchema>;

/**
 * Sends the caller one text from the business's number: the caller's OWN number only (no tool
 * takes a recipient: a model talked into texting a premium number is toll fraud), at most
 * `CONTACT_LIMITS.textsPerCall` per call across every tool that texts, and only to a number the
 * texting rule allows (`textRefusal`: a mobile number of the line's region or the business's
 * `sms_regions`; a spoofed caller id abroad or a premium-rate one cannot be pumped). Resolves with
 * the carrier's message id; refuses in plain words when the call cannot text.
 */
export async function textCaller(context: ToolContext, body: string): Promise<{ id: string; left: number }> {
  if (!isTextableNumber(context.partyNumber))
    throw new ToolRefusal("The caller's number is withheld, so no text can be sent. Offer to read the details out instead.");
  if (!isTextableNumber(context.businessNumber))
    throw new ToolRefusal('This line cannot send texts. Offer to read the details out instead.');
  // A caller id is easily spoofed: texts to another region's or a premium-rate number are SMS
  // pumping fraud paid by the business, so the one texting rule decides.
  if (textRefusal(context.partyNumber, textingLine(context)) !== null)
    throw new ToolRefusal(
      "The caller's number is not one this line texts (another region, or not a mobile number), so no text can be sent. " +
        'Offer to read the details out instead.',
    );
  const name = businessName(context.profile);
  const text = name && !body.startsWith(name) ? `${name}: ${body}` : body;
  const sent = await withAllowance(context, 'text', () =>
    context.ports.sms.send({ from: context.businessNumber, to: context.partyNumber, body: text }, context.signal),
  );
  return { id: sent.id, left: context.allowance.left('text') };
}

/** The line this call texts from, and what the business lets it text (`TextingLine`). */
export function textingLine(context: ToolContext): TextingLine {
  return { number: context.businessNumber, regions: context.profile?.sms_regions ?? [], sandbox: context.ports.smsSandbox ?? false };
}

/** `send_sms` (builtin `sms`): texts the caller details they asked for (an address, a link, a reference). */
export const sendSms: BuiltinTool<Args> = {
  offeredBy: 'sendSms',
  definition: {
    name: 'send_sms',
    description:
      'Send the caller a text message to the number they are calling from (it cannot go to any other number). Use it when the caller ' +
      'asks for something in writing: an address, opening hours, a reference. Ask first whether a text to this number is fine. Keep it ' +
      `short and plain, at most ${CONTACT_LIMITS.smsBodyMaxChars} characters. At most ${CONTACT_LIMITS.textsPerCall} texts per call. ` +
      'Tell the caller the text was sent only after this tool succeeds.',
    parameters: {
      type: 'object',
      properties: {
        body: { type: 'string', description: 'The text to send, complete in itself.', maxLength: CONTACT_LIMITS.smsBodyMaxChars },
      },
      required: ['body'],
      additionalProperties: false,
    },
  },
  args: SendSmsArgsSchema,
  timeoutMs: 10_000,
  unavailable: 'The text could not be sent just now. Tell the caller, and offer to read the details out instead.',
  async execute(args, context) {
    const sent = await textCaller(context, args.body);
    return { output: { sent: true, texts_left: sent.left }, summary: `text ${sent.id} sent` };
  },
};
