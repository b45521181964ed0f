import type { Workflow } from '../../../shared/domain/workflow';

/** Where a call finds its assistant's workflow, once when it starts (never on a turn). */
export interface WorkflowSource {
  /** The workflow, and the ids of the business's custom tools its `tool` nodes name; undefined when it is gone. */
  load(businessId: number, workflowId: number): Promise<{ workflow: Workflow; toolIds: number[] } | undefined>;
}
