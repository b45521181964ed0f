import { isDeepStrictEqual } from 'node:util';
import type { IdAllocator } from '../db/ids';
import { ResourceInUseError } from '../db/references';
import type { ToolRepository } from '../db/tool-repository';
import type { WorkflowRepository } from '../db/workflow-repository';
import {
  parseCreateWorkflowBody,
  parseUpdateWorkflowBody,
  WORKFLOW_BUILTIN_TOOLS,
  type CreateWorkflowInput,
  type Workflow,
} from '../domain/workflow';
import { workflowProblems } from '../domain/workflow-graph';
import { ConflictError, NotFoundError, ValidationError, type ValidationItem } from '../errors';
import type { PageCursors } from '../db/page-cursor';
import { parseCursorListQuery } from '../domain/paging';
import { listPage, openCursor, type ListPage } from './list-page';

/** What the workflow use cases need; built once per process by the composition root. */
export interface WorkflowServiceDeps {
  workflows: WorkflowRepository;
  tools: Pick<ToolRepository, 'listTools'>;
  ids: Pick<IdAllocator, 'nextId'>;
  now: () => Date;
  /** Signs and opens the list's cursors. */
  cursors: PageCursors;
}

/** A workflow still named by assistants' `workflow_id`: deleting it is refused (docs/decisions.md "Workflows"). */
export class WorkflowInUseError extends ConflictError {
  constructor(
    workflowId: number,
    readonly assistantIds: number[],
  ) {
    super(
      'workflow_in_use',
      `Workflow ${workflowId} is the workflow_id of assistant${assistantIds.length === 1 ? '' : 's'} ${assistantIds.join(', ')}; ` +
        'set their workflow_id to another workflow or null first.',
    );
    this.name = 'WorkflowInUseError';
  }
}

/**
 * Workflows (docs/design.md "Workflows"), at most the business's `workflows` quota (taken in the create's
 * transaction, a 409 `quota_exceeded` past it): the shape from the body's schema, then the graph as a whole
 * (`workflowProblems`) against the business's tools, every problem in one 422 with its `loc`.
 */
export class WorkflowService {
  constructor(private readonly deps: WorkflowServiceDeps) {}

  /** GET /workflows: one page of the business's workflows, newest (highest id) first. */
  async list(businessId: number, query: Record<string, string | undefined>): Promise<ListPage<Workflow>> {
    const { limit, cursor } = parseCursorListQuery(query);
    const scope = { businessId, route: 'workflows' };
    const after = await openCursor(this.deps.cursors, scope, cursor);
    return listPage(
      await this.deps.workflows.pageWorkflows(businessId, { limit, after }),
      (workflow) => workflow,
      this.deps.cursors,
      scope,
    );
  }

  async get(businessId: number, workflowId: number): Promise<Workflow> {
    return this.find(businessId, workflowId);
  }

  async create(businessId: number, body: unknown): Promise<Workflow> {
    const input = parseCreateWorkflowBody(body);
    await this.checkGraph(businessId, input);
    const now = this.deps.now().toISOString();
    const workflow: Workflow = { id: await this.deps.ids.nextId(), ...input, created_at: now, updated_at: now };
    await this.deps.workflows.insertWorkflow(businessId, workflow);
    return workflow;
  }

  /** Merges the fields given over the workflow's; the result is checked as a whole. */
  async update(businessId: number, workflowId: number, body: unknown): Promise<Workflow> {
    const patch = parseUpdateWorkflowBody(body);
    const current = await this.find(businessId, workflowId);
    // A PATCH that changes nothing writes nothing, so `updated_at` keeps saying when it last changed.
    if (isDeepStrictEqual({ ...current, ...patch }, current)) return current;
    const next: Workflow = { ...current, ...patch, updated_at: this.later(current) };
    await this.checkGraph(businessId, next);
    await this.deps.workflows.replaceWorkflow(businessId, current, next);
    return next;
  }

  /** Deletes a workflow no assistant uses; one in use is refused with the assistants listed (one item read, in the delete's transaction). */
  async delete(businessId: number, workflowId: number): Promise<{ id: number; deleted: true }> {
    await this.find(businessId, workflowId);
    try {
      await this.deps.workflows.deleteWorkflow(businessId, workflowId);
    } catch (error) {
      if (error instanceof ResourceInUseError) throw new WorkflowInUseError(workflowId, error.assistantIds);
      throw error;
    }
    return { id: workflowId, deleted: true };
  }

  private async find(businessId: number, workflowId: number): Promise<Workflow> {
    const workflow = await this.deps.workflows.findWorkflow(businessId, workflowId);
    if (!workflow) throw new NotFoundError(`Workflow ${workflowId} not found.`);
    return workflow;
  }

  private async checkGraph(businessId: number, workflow: CreateWorkflowInput): Promise<void> {
    const usesCustom = workflow.nodes.some((node) => node.type === 'tool' && !WORKFLOW_BUILTIN_TOOLS.includes(node.tool));
    const custom = usesCustom ? (await this.deps.tools.listTools(businessId)).map((tool) => tool.name) : [];
    const problems = workflowProblems(workflow, new Set<string>([...WORKFLOW_BUILTIN_TOOLS, ...custom]));
    if (problems.length === 0) return;
    const items: ValidationItem[] = problems.slice(0, 50).map((problem) => ({
      loc: ['body', ...problem.loc],
      msg: `Value error, ${problem.message}`,
      type: 'value_error',
      input: problem.input,
    }));
    throw new ValidationError(items);
  }

  /** Now, or a millisecond after the last save: `updated_at` guards the next write, so it must change. */
  private later(current: Workflow): string {
    const last = Date.parse(current.updated_at);
    return new Date(Math.max(this.deps.now().getTime(), last + 1)).toISOString();
  }
}
