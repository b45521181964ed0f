import type { Workflow } from '../../../../shared/domain/workflow';
import { ACTION_TOOLS } from '../../tools/registry';
import type { BuiltinTool } from '../../tools/tool-types';

/** The tool names a workflow's `tool` nodes name (built-in or the business's own). */
export const workflowToolNames = (workflow: Workflow) =>
  new Set(workflow.nodes.flatMap((node) => (node.type === 'tool' ? [node.tool] : [])));

/**
 * The built-in tools a workflow's `tool` nodes name that the call does not offer the model: the
 * runner may run them for the workflow (the model still sees only the tools the config offers).
 */
export function workflowBuiltins(workflow: Workflow, offered: readonly BuiltinTool<any>[]): BuiltinTool<any>[] {
  const names = workflowToolNames(workflow);
  return ACTION_TOOLS.filter((tool) => names.has(tool.definition.name) && !offered.includes(tool));
}
