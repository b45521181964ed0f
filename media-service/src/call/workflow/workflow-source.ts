import type { Db } from '../../../../shared/db/client';
import { ToolRepository } from '../../../../shared/db/tool-repository';
import { WorkflowRepository } from '../../../../shared/db/workflow-repository';
import type { Workflow } from '../../../../shared/domain/workflow';
import { ACTION_TOOLS } from '../../tools/registry';
import type { BuiltinTool } from '../../tools/tool-types';

/** Where a call finds its assistant's workflow, once when it starts (never on a turn). */
export interface WorkflowSource {
  /** The workflow, and the ids of the business's custom tools its `tool` nodes name; undefined when it is gone. */
  load(businessId: number, workflowId: number): Promise<{ workflow: Workflow; toolIds: number[] } | undefined>;
}

const toolNames = (workflow: Workflow) => new Set(workflow.nodes.flatMap((node) => (node.type === 'tool' ? [node.tool] : [])));

/** Workflows from the table: one read, and one more for the tool list only when a `tool` node names a custom tool. */
export function tableBackedWorkflows(db: Db): WorkflowSource {
  const workflows = new WorkflowRepository(db);
  const tools = new ToolRepository(db);
  return {
    async load(businessId, workflowId) {
      const workflow = await workflows.findWorkflow(businessId, workflowId);
      if (!workflow) return undefined;
      const names = toolNames(workflow);
      const custom = [...names].filter((name) => !ACTION_TOOLS.some((tool) => tool.definition.name === name));
      const toolIds =
        custom.length === 0 ? [] : (await tools.listTools(businessId)).filter((tool) => names.has(tool.name)).map((tool) => tool.id);
      return { workflow, toolIds };
    },
  };
}

/**
 * The built-in tools a workflow's `tool` nodes name that the call does not offer the model: the
 * runner may run them for the workflow (the model still sees only the tools the config offers).
 */
export function workflowBuiltins(workflow: Workflow, offered: readonly BuiltinTool<any>[]): BuiltinTool<any>[] {
  const names = toolNames(workflow);
  return ACTION_TOOLS.filter((tool) => names.has(tool.definition.name) && !offered.includes(tool));
}
