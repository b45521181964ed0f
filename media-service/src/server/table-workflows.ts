import type { Db } from '../../../shared/db/client';
import { ToolRepository } from '../../../shared/db/tool-repository';
import { WorkflowRepository } from '../../../shared/db/workflow-repository';
import { workflowToolNames } from '../call/workflow/workflow-source';
import type { WorkflowSource } from '../ports/workflow-source';
import { ACTION_TOOLS } from '../tools/registry';

/** Workflows from the table: one read, and one more for the tool list only when a `tool` node names a custom tool. */
export function tableBackedWorkflows(db: Db): WorkflowSource {
  const workflows = new WorkflowRepository(db);
  const tools = new ToolRepository(db);
  return {
    async load(businessId, workflowId) {
      const workflow = await workflows.findWorkflow(businessId, workflowId);
      if (!workflow) return undefined;
      const names = workflowToolNames(workflow);
      const custom = [...names].filter((name) => !ACTION_TOOLS.some((tool) => tool.definition.name === name));
      const toolIds =
        custom.length === 0 ? [] : (await tools.listTools(businessId)).filter((tool) => names.has(tool.name)).map((tool) => tool.id);
      return { workflow, toolIds };
    },
  };
}
