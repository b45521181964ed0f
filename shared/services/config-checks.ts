import type { AssistantConfig } from '../domain/assistant-config';
import type { CatalogRepository } from '../db/catalog-repository';
import { ValidationError, type ValidationItem } from '../errors';
import { checkUrlSyntax, urlValidationItem, type UrlPolicy } from '../security/ssrf';

function valueError(loc: (string | number)[], message: string, input: unknown): ValidationItem {
  return { loc, msg: `Value error, ${message}`, type: 'value_error', input };
}

/**
 * Checks what the schema cannot: referenced ids exist for this business, user-supplied URLs pass the
 * SSRF guard, and a custom model has a URL. All problems are reported together as one 422.
 */
export async function checkConfigReferences(
  businessId: number,
  config: AssistantConfig,
  loc: (string | number)[],
  deps: { catalog: CatalogRepository; urlPolicy: UrlPolicy; workflows?: WorkflowLookup },
): Promise<void> {
  const items: ValidationItem[] = [];
  if (config.tool_ids.length > 0) {
    const existing = await deps.catalog.existingToolIds(businessId, config.tool_ids);
    config.tool_ids.forEach((id, index) => {
      if (!existing.has(id)) items.push(valueError([...loc, 'tool_ids', index], `tool ${id} does not exist`, id));
    });
  }
  const knowledgeIds = config.knowledge_ids ?? [];
  if (knowledgeIds.length > 0) {
    const existing = await deps.catalog.existingKnowledgeBaseIds(businessId, knowledgeIds);
    knowledgeIds.forEach((id, index) => {
      if (!existing.has(id)) items.push(valueError([...loc, 'knowledge_ids', index], `knowledge base ${id} does not exist`, id));
    });
  }
  if (config.workflow_id !== null) {
    const problem = await workflowIdProblem(businessId, config.workflow_id, deps.workflows);
    if (problem) items.push(valueError([...loc, 'workflow_id'], problem, config.workflow_id));
  }
  const urls: [string[], string][] = [
    [['advanced', 'server_url'], config.advanced.server_url],
    [['model', 'custom_url'], config.model.custom_url],
    [['model', 'fallback', 'custom_url'], config.model.fallback?.custom_url ?? ''],
  ];
  for (const [path, url] of urls) {
    if (url === '') continue;
    const checked = checkUrlSyntax(url, deps.urlPolicy);
    if (!checked.ok) items.push(urlValidationItem([...loc, ...path], checked.reason, url));
  }
  if (config.model.provider === 'custom' && config.model.custom_url === '') {
    items.push(valueError([...loc, 'model', 'custom_url'], 'a custom model needs custom_url', ''));
  }
  if (config.model.fallback?.provider === 'custom' && config.model.fallback.custom_url === '') {
    items.push(valueError([...loc, 'model', 'fallback', 'custom_url'], 'a custom fallback model needs custom_url', ''));
  }
  if (items.length > 0) throw new ValidationError(items);
}

/** Finds a business's workflow (the workflow repository). */
export interface WorkflowLookup {
  findWorkflow(businessId: number, workflowId: number): Promise<unknown>;
}

/** Why `workflow_id` cannot be used, or undefined: it must be the business's own (either mode runs it). */
async function workflowIdProblem(
  businessId: number,
  workflowId: number,
  workflows: WorkflowLookup | undefined,
): Promise<string | undefined> {
  if (!workflows || (await workflows.findWorkflow(businessId, workflowId)) === undefined) return `workflow ${workflowId} does not exist`;
  return undefined;
}
