import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import type { KmsLike } from '../../shared/security/secret-box';

/** KMS adapter for the secret box: one key, the tenant context bound into every ciphertext. */
export function kmsClient(keyId: string, region: string): KmsLike {
  const client = new KMSClient({ region });
  return {
    async encrypt(plaintext, context) {
      const out = await client.send(new EncryptCommand({ KeyId: keyId, Plaintext: plaintext, EncryptionContext: context }));
      return out.CiphertextBlob!;
    },
    async decrypt(ciphertext, context) {
      const out = await client.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: ciphertext, EncryptionContext: context }));
      return out.Plaintext!;
    },
  };
}
