/**
 * Resource names of a deployed stage, shared by the CDK app and the ops command line
 * (`npm run admin -- ... --stage NAME`). Dependency-free.
 */
export function stageResourceNames(stage: string): { TABLE_NAME: string; KMS_KEY_ID: string } {
  return { TABLE_NAME: `voice-agent-${stage}`, KMS_KEY_ID: `alias/voice-agent-${stage}-secrets` };
}
