import { Stack, Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag (v3 API) and its acknowledgments. A finding is either fixed in the construct or
 * acknowledged here with a reason; `acknowledge` refuses a reason too short to explain anything.
 */

/** Runs the AwsSolutions pack on every stack of the app at synthesis (any finding fails synth). */
export function addNagChecks(app: App): AwsSolutionsChecks {
  const checks = new AwsSolutionsChecks(app);
  Validations.of(app).addPlugins(checks);
  return checks;
}

const MIN_REASON_LENGTH = 20;

/**
 * Acknowledges one cdk-nag finding on `scope` and everything below it, with the reason in code.
 * @example acknowledge(queue, 'AwsSolutions-SQS3', 'This queue is itself the EventBridge target DLQ.')
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  if (reason.trim().length < MIN_REASON_LENGTH) {
    throw new Error(`cdk-nag acknowledgment ${id} at ${scope.node.path} needs a real reason`);
  }
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * Acknowledges the IAM5 finding of one wildcard resource ARN (an object prefix, a GSI path) on the
 * principal that holds it. The finding id is computed the way cdk-nag renders it, so the ARN must
 * be built from names and pseudo parameters (no cross-stack references).
 */
export function acknowledgeWildcardResource(principal: IConstruct, resourceArn: string, reason: string): void {
  const flat = flattenReference(Stack.of(principal).resolve(resourceArn));
  acknowledge(principal, `AwsSolutions-IAM5[Resource::${flat}]`, reason);
}

/**
 * Acknowledges the IAM5 finding of every wildcard resource (`…/*`) in `policy`: for a policy CDK
 * writes itself (a provider's grants), whose ARNs the caller cannot name in advance.
 */
export function acknowledgeWildcardResourcesOf(principal: IConstruct, policy: { document: unknown }, reason: string): void {
  const document = Stack.of(principal).resolve(policy.document) as { Statement?: Array<{ Resource?: unknown }> };
  const resources = (document.Statement ?? []).flatMap((statement) => [statement.Resource ?? []].flat());
  for (const flat of new Set(resources.map(flattenReference))) {
    if (flat.includes('*')) acknowledge(principal, `AwsSolutions-IAM5[Resource::${flat}]`, reason);
  }
}

/** Acknowledges the IAM5 finding of one wildcard action (`xray:Put*`) on a principal. */
export function acknowledgeWildcardAction(principal: IConstruct, action: string, reason: string): void {
  acknowledge(principal, `AwsSolutions-IAM5[Action::${action}]`, reason);
}

/** cdk-nag's rendering of a CloudFormation value in finding ids (`<Logical.Attr>`, `<AWS::Region>`). */
function flattenReference(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (typeof node !== 'object' || node === null) return JSON.stringify(node);
  const value = node as Record<string, unknown>;
  if (value['Fn::Join']) {
    const [delimiter, items] = value['Fn::Join'] as [string, unknown[]];
    return items.map(flattenReference).join(delimiter);
  }
  if (value['Fn::Sub']) return flattenReference(value['Fn::Sub']);
  if (value['Fn::GetAtt']) {
    const [resource, attribute] = value['Fn::GetAtt'] as [unknown, unknown];
    return `<${flattenReference(resource)}.${flattenReference(attribute)}>`;
  }
  if (value['Fn::ImportValue']) return flattenReference(value['Fn::ImportValue']);
  if (value.Ref) return `<${flattenReference(value.Ref)}>`;
  return JSON.stringify(node);
}
