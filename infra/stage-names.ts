import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { stageResourceNames } from './names';

/**
 * Physical names of a stage's resources. The table and the customer-secrets key alias come from
 * names.ts (the ops command line finds them by name); the rest are fixed here so that IAM policies
 * in other stacks can name them without cross-stack references.
 */
export interface StageNames {
  readonly prefix: string;
  readonly tableName: string;
  readonly secretsKeyAlias: string;
  readonly eventBusName: string;
  /** Secrets Manager name of one provider secret (`voice-agent/<stage>/twilio`). */
  secretName(provider: string): string;
}

/** The names of `stage`'s resources. */
export function stageNames(stage: string): StageNames {
  const shared = stageResourceNames(stage);
  const prefix = `voice-agent-${stage}`;
  return {
    prefix,
    tableName: shared.TABLE_NAME,
    secretsKeyAlias: shared.KMS_KEY_ID,
    eventBusName: prefix,
    secretName: (provider) => `voice-agent/${stage}/${provider}`,
  };
}

/**
 * The recordings bucket's name: global, so it carries account and region (pseudo parameters when
 * the stack is environment-agnostic). Every stack of the stage computes the same value.
 */
export function recordingsBucketName(scope: IConstruct, stage: string): string {
  const stack = Stack.of(scope);
  return `voice-agent-${stage}-recordings-${stack.account}-${stack.region}`;
}
