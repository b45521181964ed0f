import { Aws, Stack } from 'aws-cdk-lib';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { RECORDINGS_PREFIX } from '../constants';
import { acknowledgeWildcardResource } from '../nag';

/**
 * Least-privilege grants shared by the Lambda functions and the media service. Each grant names
 * exactly the actions the runtime code uses (no `grantReadWriteData`-style bundles with Scan or
 * `kms:GenerateDataKey*`), and acknowledges the one unavoidable wildcard it creates.
 */

/** How a principal uses the table. */
export type TableAccess = 'read' | 'read-write';

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/**
 * Item access to the single table and reads of its GSIs; no Scan, no table management.
 * `tableName` is the physical name (stage-names.ts), so the policy needs no cross-stack import.
 */
export function grantTable(role: IRole, tableName: string, access: TableAccess): void {
  const tableArn = Stack.of(role).formatArn({ service: 'dynamodb', resource: 'table', resourceName: tableName });
  const indexArn = `${tableArn}/index/*`;
  role.addToPrincipalPolicy(new PolicyStatement({ actions: TABLE_READ, resources: [tableArn, indexArn] }));
  if (access === 'read-write') role.addToPrincipalPolicy(new PolicyStatement({ actions: TABLE_WRITE, resources: [tableArn] }));
  acknowledgeWildcardResource(
    role,
    indexArn,
    'List reads query the GSIs of this one table (gsi1 to gsi3); DynamoDB names index ARNs <table>/index/<name>.',
  );
}

/** How a principal uses the recordings: the engine writes, webhooks presign reads, retention deletes. */
export type RecordingsAccess = 'write' | 'read' | 'delete';

const RECORDING_ACTIONS: Record<RecordingsAccess, { s3: string[]; kms: string[] }> = {
  // Multipart uploads of SSE-KMS objects need kms:Decrypt as well as GenerateDataKey.
  write: { s3: ['s3:PutObject', 's3:AbortMultipartUpload'], kms: ['kms:GenerateDataKey', 'kms:Decrypt'] },
  read: { s3: ['s3:GetObject'], kms: ['kms:Decrypt'] },
  delete: { s3: ['s3:DeleteObject'], kms: [] },
};

/** Object access under `recordings/` only, plus the bucket key operations that access needs. */
export function grantRecordings(role: IRole, bucketName: string, bucketKey: IKey, access: RecordingsAccess): void {
  const objects = `arn:${Aws.PARTITION}:s3:::${bucketName}/${RECORDINGS_PREFIX}*`;
  const { s3, kms } = RECORDING_ACTIONS[access];
  role.addToPrincipalPolicy(new PolicyStatement({ actions: s3, resources: [objects] }));
  if (kms.length > 0) bucketKey.grant(role, ...kms);
  acknowledgeWildcardResource(
    role,
    objects,
    'Recordings are objects named recordings/<business>/<call>.wav; access is limited to that prefix of the one bucket.',
  );
}

/** What a principal does with the customer-secrets key (custom LLM keys, webhook secrets). */
export type SecretsKeyUse = 'encrypt' | 'decrypt';

/** kms:Encrypt and/or kms:Decrypt on the customer-secrets key, nothing else. */
export function grantSecretsKey(role: IRole, key: IKey, uses: readonly SecretsKeyUse[]): void {
  const actions = uses.map((use) => (use === 'encrypt' ? 'kms:Encrypt' : 'kms:Decrypt'));
  key.grant(role, ...actions);
}
