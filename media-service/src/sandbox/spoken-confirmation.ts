/**
 * What the caller hears of a change's confirmation (the tool's `confirmation`): what was texted or
 * emailed, or honestly that it could not be; nothing when nothing was to be sent.
 */
export function saidConfirmation(output: Record<string, unknown>): string {
  const confirmation = (output.confirmation ?? {}) as { sms?: string; email?: string };
  const sent = [
    confirmation.sms === 'sent' ? 'texted you a confirmation' : '',
    confirmation.email === 'sent' ? 'emailed you a calendar invitation' : '',
  ].filter(Boolean);
  const failed = [confirmation.sms === 'failed' ? 'text' : '', confirmation.email === 'failed' ? 'email' : ''].filter(Boolean);
  const words = sent.length > 0 ? [`I've ${sent.join(' and ')}.`] : [];
  if (failed.length > 0) words.push(`I couldn't send you the confirmation ${failed.join(' or ')}, but it's all done on our side.`);
  return words.map((sentence) => `${sentence} `).join('');
}
