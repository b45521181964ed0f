import { createHash } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ApiConfig } from './config';

/** The platform OpenAI key, read on first use (never logged); undefined when none is configured. */
export function openAiKeySource(
  config: Pick<ApiConfig, 'OPENAI_API_KEY' | 'OPENAI_SECRET_ARN' | 'AWS_REGION'>,
): (() => Promise<string>) | undefined {
  if (config.OPENAI_API_KEY) {
    const key = config.OPENAI_API_KEY;
    return async () => key;
  }
  const arn = config.OPENAI_SECRET_ARN;
  if (!arn) return undefined;
  return async () => {
    const secret = await new SecretsManagerClient({ region: config.AWS_REGION }).send(new GetSecretValueCommand({ SecretId: arn }));
    const key = (JSON.parse(secret.SecretString ?? '{}') as { api_key?: string }).api_key;
    if (!key) throw new Error('The OpenAI secret has no api_key.');
    return key;
  };
}

/**
 * The key list cursors are signed with: the generated Secrets Manager secret on AWS (read on the
 * first list request), or one derived from LOCAL_SECRET_KEY on the local stack and in tests. Every
 * API instance must share it, or a cursor from one would be refused by the next.
 */
export function cursorSecret(config: Pick<ApiConfig, 'CURSOR_SECRET_ARN' | 'LOCAL_SECRET_KEY' | 'AWS_REGION'>): () => Promise<Uint8Array> {
  const arn = config.CURSOR_SECRET_ARN;
  if (arn) {
    return async () => {
      const secret = await new SecretsManagerClient({ region: config.AWS_REGION }).send(new GetSecretValueCommand({ SecretId: arn }));
      if (!secret.SecretString) throw new Error('The list-cursor secret is empty.');
      return Buffer.from(secret.SecretString, 'utf8');
    };
  }
  const local = config.LOCAL_SECRET_KEY;
  // Thrown on the first cursor, not here: the ops command line shares these deps and lists nothing.
  if (!local) return () => Promise.reject(new Error('Set CURSOR_SECRET_ARN (AWS) or LOCAL_SECRET_KEY (local stack) to sign list cursors.'));
  const key = createHash('sha256').update(`list-cursor:${local}`).digest();
  return async () => key;
}
