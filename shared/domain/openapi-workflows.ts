import type * as v from 'valibot';
import { BODY_ERRORS, body, idParam, idempotencyKeyParam, jsonResponse, op, responses } from './openapi-operations';
import { cursorListParameters } from './openapi-paging';
import { DEFAULT_QUOTAS } from './quota';
import {
  CreateWorkflowBodySchema,
  DeleteWorkflowResultSchema,
  UpdateWorkflowBodySchema,
  WorkflowListSchema,
  WorkflowNodeSchema,
  WorkflowSchema,
} from './workflow';

type Json = Record<string, unknown>;

/**
 * The OpenAPI entries of workflows (/workflows): paths, schemas and the 409s. Functions only,
 * called while the document is built (the import cycle with `openapi.ts` is harmless).
 */

/** The tag of these operations. */
export const WORKFLOW_TAGS: Record<string, string> = {
  Workflows:
    'Workflows: the steps a call follows (say, conversation, collect, branch, tool, transfer, end); ' +
    "attach one with `config.workflow_id`. The call's `workflow` shows the nodes visited and the variables collected.",
};

/** Request bodies (input form). */
export function workflowRequestSchemas(): Record<string, v.GenericSchema> {
  return { CreateWorkflowBody: CreateWorkflowBodySchema, UpdateWorkflowBody: UpdateWorkflowBodySchema };
}

/** Response bodies (output form). */
export function workflowResponseSchemas(): Record<string, v.GenericSchema> {
  return {
    Workflow: WorkflowSchema,
    WorkflowNode: WorkflowNodeSchema,
    WorkflowList: WorkflowListSchema,
    DeleteWorkflowResult: DeleteWorkflowResultSchema,
  };
}

/** Responses only these operations give. */
export function workflowErrorResponses(): Record<string, Json> {
  return {
    WorkflowInUse: jsonResponse(
      "Assistants' `workflow_id` still names the workflow (`workflow_in_use`); the detail lists them.",
      'ErrorBody',
    ),
    WorkflowConflict: jsonResponse('The workflow changed meanwhile (`conflict`): read it again and retry.', 'ErrorBody'),
  };
}

const NOT_FOUND = { '404': 'NotFound' };
const INVALID = { '422': 'ValidationFailed' };

/** /workflows and /workflows/{workflow_id}. */
export function workflowPaths(): Json {
  return {
    '/workflows': {
      get: {
        ...op(
          'listWorkflows',
          'Workflows',
          "List the business's workflows, newest first, one page at a time.",
          responses(jsonResponse('One page of workflows.', 'WorkflowList'), { '422': 'ValidationFailed' }),
        ),
        parameters: cursorListParameters(),
      },
      post: {
        ...op(
          'createWorkflow',
          'Workflows',
          'Create a workflow. Besides each field, the graph is checked: unique node ids, edges to existing nodes, every node ' +
            "reachable from `start`, a way out of every conversation, fields in every collect, and tools the business has; each problem's `loc` points into `nodes`. " +
            `At most the business's \`workflows\` quota (default ${DEFAULT_QUOTAS.workflows}).`,
          responses(jsonResponse('The new workflow.', 'Workflow'), { '409': 'CreateConflict', ...BODY_ERRORS }),
        ),
        parameters: [idempotencyKeyParam()],
        requestBody: body('CreateWorkflowBody'),
      },
    },
    '/workflows/{workflow_id}': {
      parameters: [idParam('workflow_id')],
      get: op(
        'getWorkflow',
        'Workflows',
        'Get one workflow.',
        responses(jsonResponse('The workflow.', 'Workflow'), { ...NOT_FOUND, ...INVALID }),
      ),
      patch: {
        ...op(
          'updateWorkflow',
          'Workflows',
          'Change a workflow: the fields given replace theirs and the result is checked as a whole; calls starting afterwards use it.',
          responses(jsonResponse('The updated workflow.', 'Workflow'), { ...NOT_FOUND, '409': 'WorkflowConflict', ...BODY_ERRORS }),
        ),
        requestBody: body('UpdateWorkflowBody'),
      },
      delete: op(
        'deleteWorkflow',
        'Workflows',
        "Delete a workflow; refused (409 `workflow_in_use`) while an assistant's `workflow_id` names it.",
        responses(jsonResponse('Deleted.', 'DeleteWorkflowResult'), { ...NOT_FOUND, '409': 'WorkflowInUse', ...INVALID }),
      ),
    },
  };
}
