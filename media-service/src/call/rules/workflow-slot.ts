import type { CallWorkflow } from '../../../../shared/domain/workflow';
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

export function workflowRules(settings: WorkflowSettings): WorkflowRules {
  return {
    start: WORKFLOW_START,
    reduce: (state, event) => reduceWorkflow(settings, state, event),
    steering: (state) => workflowSteering(settings, state),
    view: (state) => workflowView(settings, state),
  };
}
