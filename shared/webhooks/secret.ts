/** Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes (one per business). */
export function generateWebhookSecret(randomBytes: (size: number) => Uint8Array): string {
  return `whsec_${Buffer.from(randomBytes(32)).toString('base64')}`;
}
