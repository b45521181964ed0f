import { isDeepStrictEqual } from 'node:util';
import type { IdAllocator } from '../db/ids';
import { ResourceInUseError } from '../db/references';
import { ToolNameTakenError, type ToolRecord, type ToolRepository } from '../db/tool-repository';
import {
  isReservedToolName,
  parseCreateToolBody,
  parseUpdateToolBody,
  RESERVED_NAME_MESSAGE,
  toToolView,
  type CreateToolInput,
  type Tool,
} from '../domain/tool';
import { ConflictError, NotFoundError, ValidationError, type ValidationItem } from '../errors';
import { checkUrlSyntax, urlValidationItem, type UrlPolicy } from '../security/ssrf';
import { MAX_VALIDATION_ITEMS } from '../domain/validation-errors';
import { toolParametersProblem } from '../tools/tool-schema';
import type { PageCursors } from '../db/page-cursor';
import { parseCursorListQuery } from '../domain/paging';
import { listPage, openCursor, type ListPage } from './list-page';

/** What the tool use cases need; built once per process by the composition root. */
export interface ToolServiceDeps {
  tools: ToolRepository;
  ids: Pick<IdAllocator, 'nextId'>;
  urlPolicy: UrlPolicy;
  now: () => Date;
  /** Signs and opens the list's cursors. */
  cursors: PageCursors;
}

/** A tool still named by assistants' `tool_ids`: deleting it is refused (docs/decisions.md "Custom tools"). */
export class ToolInUseError extends ConflictError {
  constructor(
    toolId: number,
    readonly assistantIds: number[],
  ) {
    super(
      'tool_in_use',
      `Tool ${toolId} is in the tool_ids of assistant${assistantIds.length === 1 ? '' : 's'} ${assistantIds.join(', ')}; ` +
        'remove it from their config first.',
    );
    this.name = 'ToolInUseError';
  }
}

function valueError(loc: (string | number)[], message: string, input: unknown): ValidationItem {
  return { loc, msg: `Value error, ${message}`, type: 'value_error', input };
}

/**
 * Custom tools (docs/design.md "Custom tools"): the API's /tools routes and the ops `add-tool` write through
 * here, so both apply the same checks: the body's schema, the parameters against a real JSON
 * Schema validator, the server URL through the SSRF guard, and one name per business.
 */
export class ToolService {
  constructor(private readonly deps: ToolServiceDeps) {}

  /** GET /tools: one page of the business's tools, newest (highest id) first. */
  async list(businessId: number, query: Record<string, string | undefined>): Promise<ListPage<Tool>> {
    const { limit, cursor } = parseCursorListQuery(query);
    const scope = { businessId, route: 'tools' };
    const after = await openCursor(this.deps.cursors, scope, cursor);
    return listPage(await this.deps.tools.pageTools(businessId, { limit, after }), toToolView, this.deps.cursors, scope);
  }

  async get(businessId: number, toolId: number): Promise<Tool> {
    return toToolView(await this.find(businessId, toolId));
  }

  /** Creates a tool; `loc` is where 422 items point (`['body']` from the API, `[]` from the CLI). */
  async create(businessId: number, body: unknown, loc: (string | number)[] = ['body']): Promise<Tool> {
    const input = this.parsed(() => parseCreateToolBody(body, loc), body, loc);
    this.checkDeep(input, loc);
    const now = this.deps.now().toISOString();
    const tool: Tool = { id: await this.deps.ids.nextId(), ...input, created_at: now, updated_at: now };
    await this.named(() => this.deps.tools.insertTool(businessId, tool), loc);
    return tool;
  }

  /** Merges the fields given over the tool's; the result is checked as a whole. */
  async update(businessId: number, toolId: number, body: unknown): Promise<Tool> {
    const patch = this.parsed(() => parseUpdateToolBody(body), body, ['body']);
    const current = await this.find(businessId, toolId);
    // A PATCH that changes nothing writes nothing, so `updated_at` keeps saying when it last changed.
    const view = toToolView(current);
    if (isDeepStrictEqual({ ...view, ...patch }, view)) return view;
    const next: Tool = { ...view, ...patch, updated_at: this.later(current) };
    this.checkDeep(next, ['body'], patch);
    if (next.name !== current.name) this.checkNameFree(await this.deps.tools.listTools(businessId), next.name, toolId, ['body']);
    await this.named(() => this.deps.tools.replaceTool(businessId, current, next), ['body']);
    return next;
  }

  /**
   * Deletes a tool no assistant names; one still named is refused with the assistants listed (its
   * references item, read in the delete's own transaction: no assistant is read).
   */
  async delete(businessId: number, toolId: number): Promise<{ id: number; deleted: true }> {
    const current = await this.find(businessId, toolId);
    try {
      await this.deps.tools.deleteTool(businessId, current);
    } catch (error) {
      if (error instanceof ResourceInUseError) throw new ToolInUseError(toolId, error.assistantIds);
      throw error;
    }
    return { id: toolId, deleted: true };
  }

  private async find(businessId: number, toolId: number): Promise<ToolRecord> {
    const tool = await this.deps.tools.findTool(businessId, toolId);
    if (!tool) throw new NotFoundError(`Tool ${toolId} not found.`);
    return tool;
  }

  /**
   * The body parsed; when the schema refuses it, the 422 also carries what the deeper checks find
   * in the fields it did not flag (an `ftp:` server_url beside an invalid name), so one answer
   * lists every invalid field.
   */
  private parsed<T>(parse: () => T, body: unknown, loc: (string | number)[]): T {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ValidationError) || body === null || typeof body !== 'object' || Array.isArray(body)) throw error;
      const flagged = new Set(error.items.map((item) => item.loc[loc.length]));
      const raw = body as Record<string, unknown>;
      const given: Record<string, unknown> = {};
      if (typeof raw.name === 'string' && !flagged.has('name')) given.name = raw.name;
      if (typeof raw.server_url === 'string' && !flagged.has('server_url')) given.server_url = raw.server_url;
      if (Object.hasOwn(raw, 'parameters') && !flagged.has('parameters')) given.parameters = raw.parameters;
      const more = this.deepItems(given as Pick<CreateToolInput, 'name' | 'parameters' | 'server_url'>, loc, given);
      if (more.length === 0) throw error;
      throw new ValidationError([...error.items, ...more].slice(0, MAX_VALIDATION_ITEMS));
    }
  }

  /** What the body schema cannot see: a reserved name in other capitals, the JSON Schema itself, and the URL under the SSRF guard. */
  private checkDeep(
    tool: Pick<CreateToolInput, 'name' | 'parameters' | 'server_url'>,
    loc: (string | number)[],
    given: object = tool,
  ): void {
    const items = this.deepItems(tool, loc, given);
    if (items.length > 0) throw new ValidationError(items);
  }

  private deepItems(
    tool: Pick<CreateToolInput, 'name' | 'parameters' | 'server_url'>,
    loc: (string | number)[],
    given: object,
  ): ValidationItem[] {
    const items: ValidationItem[] = [];
    if ('name' in given && isReservedToolName(tool.name)) items.push(valueError([...loc, 'name'], RESERVED_NAME_MESSAGE, tool.name));
    if ('parameters' in given) {
      const problem = toolParametersProblem(tool.parameters);
      if (problem !== null) items.push(valueError([...loc, 'parameters'], `not an acceptable JSON Schema: ${problem}`, tool.parameters));
    }
    if ('server_url' in given) {
      const checked = checkUrlSyntax(tool.server_url, this.deps.urlPolicy);
      if (!checked.ok) items.push(urlValidationItem([...loc, 'server_url'], checked.reason, tool.server_url));
    }
    return items;
  }

  private checkNameFree(existing: ToolRecord[], name: string, self: number | undefined, loc: (string | number)[]): void {
    if (existing.some((tool) => tool.name === name && tool.id !== self)) throw nameTaken(name, loc);
  }

  /** Runs a write that claims a name; a lost race for it is the same 422 as a name seen taken. */
  private async named(write: () => Promise<void>, loc: (string | number)[]): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (error instanceof ToolNameTakenError) throw nameTaken(error.toolName, loc);
      throw error;
    }
  }

  /** Now, or a millisecond after the last save: `updated_at` guards the next write, so it must change. */
  private later(current: ToolRecord): string {
    const now = this.deps.now().getTime();
    const last = Date.parse(current.updated_at ?? current.created_at);
    return new Date(Math.max(now, last + 1)).toISOString();
  }
}

function nameTaken(name: string, loc: (string | number)[]): ValidationError {
  return new ValidationError([valueError([...loc, 'name'], `a tool named ${name} already exists in this business`, name)]);
}
