import type { CallWorkflow } from '../../../../shared/domain/workflow';
import type { LlmRequest } from '../../ports/language-model';
import {
  reduceWorkflow,
  WORKFLOW_START,
  workflowSteering,
  workflowView,
  type WorkflowEvent,
  type WorkflowSettings,
  type WorkflowState,
  type WorkflowStep,
} from './workflow';

export type { WorkflowEffect, WorkflowEvent, WorkflowState } from './workflow';

/** What the model is told at the current node: its instructions and its `next_step` tool (none at an acting node). */
export type WorkflowSteering = NonNullable<ReturnType<typeof workflowSteering>>;

/**
 * The workflow interpreter (`./workflow.ts`) bound to one call's workflow and variables: the part
 * of the call's reducer a workflow adds. `reduce` is `reduceWorkflow` with the settings filled in.
 */
export interface WorkflowRules {
  start: WorkflowState;
  reduce(state: WorkflowState, event: WorkflowEvent): WorkflowStep;
  steering(state: WorkflowState): WorkflowSteering | undefined;
  view(state: WorkflowState): CallWorkflow;
}

/**
 * The rules for one call. Steering is reused while the node and the variables stay the same (the
 * reducer never changes a variables object in place), so a caller turn or a tool round at a node
 * builds no new instructions or step tool.
 */
export function workflowRules(settings: WorkflowSettings): WorkflowRules {
  let last: { node: string | undefined; variables: WorkflowState['variables']; steering: WorkflowSteering | undefined } | undefined;
  return {
    start: WORKFLOW_START,
    reduce: (state, event) => reduceWorkflow(settings, state, event),
    steering: (state) => {
      if (last && last.node === state.node && last.variables === state.variables) return last.steering;
      last = { node: state.node, variables: state.variables, steering: workflowSteering(settings, state) };
      return last.steering;
    },
    view: (state) => workflowView(settings, state),
  };
}

/** The model request at the workflow's current node: its instructions after the assistant's prompt, and `next_step` after the call's tools. */
export function steerRequest(request: LlmRequest, steering: WorkflowSteering | undefined): LlmRequest {
  if (!steering) return request;
  const [system, ...rest] = request.messages;
  return {
    ...request,
    messages: [system!, { role: 'system', content: steering.instructions }, ...rest],
    ...(steering.tool && { tools: [...(request.tools ?? []), steering.tool] }),
  };
}
