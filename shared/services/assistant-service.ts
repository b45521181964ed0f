import { isDeepStrictEqual } from 'node:util';
import type { Assistant, AssistantList, UpdateAssistantInput } from '../domain/assistant';
import { parseCreateAssistantBody, parseListAssistantsQuery, parseUpdateAssistantBody } from '../domain/assistant';
import * as v from 'valibot';
import { AssistantConfigStoredSchema, parseAssistantConfig, toConfigView, type AssistantConfig } from '../domain/assistant-config';
import { applySetupRule } from '../domain/setup-prompt';
import { templateConfig } from '../domain/templates';
import { assistantVersion, type AssistantRecord, type AssistantRepository } from '../db/assistant-repository';
import { ifMatchAllows, versionTag, type IfMatch } from '../domain/entity-tag';
import { applyMergePatch } from '../domain/merge-patch';
import { ConflictError, PreconditionFailedError, ValidationError } from '../errors';
import type { BusinessRepository } from '../db/business-repository';
import type { CatalogRepository } from '../db/catalog-repository';
import type { IdAllocator } from '../db/ids';
import type { PageCursors } from '../db/page-cursor';
import { ReferenceMissingError } from '../db/references';
import type { SecretBox } from '../security/secret-box';
import { checkConfigReferences, type WorkflowLookup } from './config-checks';
import type { UrlPolicy } from '../security/ssrf';
import { listPage, openCursor } from './list-page';

/** What the assistant use cases need; built once per process by the composition root. */
export interface AssistantServiceDeps {
  assistants: AssistantRepository;
  businesses: BusinessRepository;
  catalog: CatalogRepository;
  ids: IdAllocator;
  secretBox: SecretBox;
  /** Signs and opens the list's cursors. */
  cursors: PageCursors;
  urlPolicy: UrlPolicy;
  /** The business's workflows, for `workflow_id` (absent: no workflow id is accepted). */
  workflows?: WorkflowLookup;
  now: () => Date;
}

/**
 * The public view: the write-only custom key never leaves, only whether one is stored. The stored
 * config is re-parsed so fields come back in the documented order (DynamoDB maps keep no order)
 * and records saved before a new setting existed read with its default.
 */
export function toAssistantView(record: AssistantRecord): Assistant {
  return {
    id: record.id,
    name: record.name,
    is_default: record.is_default,
    created_at: record.created_at,
    updated_at: record.updated_at,
    config: toConfigView(v.parse(AssistantConfigStoredSchema, record.config), record.custom_key_sealed !== undefined),
  };
}

/** An assistant with its entity tag (the ETag header of every assistant response). */
export interface TaggedAssistant {
  assistant: Assistant;
  etag: string;
}

/** How PATCH reads its body, and the version it may change. */
export interface UpdateOptions {
  /** The body is an RFC 7396 merge patch on `{name, config}`, not the spec's full replacement. */
  merge?: boolean;
  ifMatch?: IfMatch;
}

/** How often an update without If-Match re-reads and retries when another write came first. */
const UPDATE_ATTEMPTS = 5;

function tagged(record: AssistantRecord): TaggedAssistant {
  return { assistant: toAssistantView(record), etag: versionTag(assistantVersion(record)) };
}

/** Sealing context for a business's custom LLM key. */
export function customKeyContext(businessId: number): Record<string, string> {
  return { business_id: String(businessId), purpose: 'llm_api_key' };
}

/** Assistant use cases: create (from a template or a full config), read, replace, delete. */
export class AssistantService {
  constructor(private readonly deps: AssistantServiceDeps) {}

  /**
   * One page, newest (highest id) first: at most `limit` assistants after `cursor` (or `offset`),
   * read by key, so it costs O(limit) reads; fewer when the next one would take the page past
   * `MAX_PAGE_BYTES` (a response Lambda can always return).
   */
  async list(businessId: number, query: Record<string, string | undefined>): Promise<AssistantList> {
    const { limit, offset, cursor } = parseListAssistantsQuery(query);
    const scope = { businessId, route: 'assistants' };
    const after = await openCursor(this.deps.cursors, scope, cursor);
    const page = await listPage(
      await this.deps.assistants.pageAssistants(businessId, { limit, offset, after }),
      toAssistantView,
      this.deps.cursors,
      scope,
    );
    return { data: page.data, limit, offset, has_more: page.has_more, next_cursor: page.next_cursor };
  }

  async get(businessId: number, assistantId: number): Promise<TaggedAssistant> {
    return tagged(await this.deps.assistants.getAssistant(businessId, assistantId));
  }

  /** A full `config` overrides the template; otherwise the template's config (with defaults). */
  async create(businessId: number, body: unknown): Promise<TaggedAssistant> {
    const input = parseCreateAssistantBody(body);
    const config = input.config ?? parseAssistantConfig(templateConfig(input.template), ['body', 'config']).config;
    await checkConfigReferences(businessId, config, ['body', 'config'], this.deps);
    const prepared = await this.withSetupRule(businessId, config, null);
    const now = this.deps.now().toISOString();
    const record: Omit<AssistantRecord, 'is_default'> = {
      id: await this.deps.ids.nextId(),
      name: input.name,
      created_at: now,
      updated_at: now,
      config: prepared,
      ...(input.customKey !== undefined
        ? { custom_key_sealed: await this.deps.secretBox.seal(input.customKey, customKeyContext(businessId)) }
        : {}),
    };
    return tagged(await referencesExisting(config, () => this.deps.assistants.insertAssistant(businessId, record)));
  }

  /**
   * `config` replaces the whole configuration, a name-only update leaves it untouched; with
   * `merge`, the body is a merge patch on the current `{name, config}` and the result is validated
   * as a full update. Every write is conditional on the version read, so two concurrent updates
   * never interleave: with If-Match the later one is a 412, without it, it re-reads and applies.
   * An update that changes nothing (`{}`, or what a GET returned) writes nothing and keeps
   * `updated_at` (and the version).
   */
  async update(businessId: number, assistantId: number, body: unknown, options: UpdateOptions = {}): Promise<TaggedAssistant> {
    const replacement = options.merge ? undefined : parseUpdateAssistantBody(body);
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      const current = await this.deps.assistants.getAssistant(businessId, assistantId);
      const version = assistantVersion(current);
      if (!ifMatchAllows(options.ifMatch, version)) throw new PreconditionFailedError();
      const input = replacement ?? parseUpdateAssistantBody(mergedBody(current, body));
      const next = await this.applyUpdate(businessId, current, input);
      if (isDeepStrictEqual({ ...next, updated_at: current.updated_at }, current)) return tagged(current);
      const outcome = await referencesExisting(next.config, () => this.deps.assistants.replaceAssistant(businessId, next, current));
      if (outcome === 'replaced') {
        return tagged({ ...next, version: version + 1 });
      }
      if (options.ifMatch?.kind === 'tags') throw new PreconditionFailedError();
    }
    throw new ConflictError('conflict', `Assistant ${assistantId} kept changing during the update; try again.`);
  }

  /** Deletes the assistant; with If-Match, only the version it names. */
  async delete(businessId: number, assistantId: number, ifMatch?: IfMatch): Promise<{ id: number; deleted: true }> {
    const current = await this.deps.assistants.getAssistant(businessId, assistantId);
    const version = assistantVersion(current);
    if (!ifMatchAllows(ifMatch, version)) throw new PreconditionFailedError();
    await this.deps.assistants.deleteAssistant(businessId, current, ifMatch?.kind === 'tags' ? version : undefined);
    return { id: assistantId, deleted: true };
  }

  private async applyUpdate(businessId: number, current: AssistantRecord, input: UpdateAssistantInput): Promise<AssistantRecord> {
    const next: AssistantRecord = { ...current, updated_at: this.deps.now().toISOString() };
    if (input.name !== undefined) next.name = input.name;
    if (input.config !== undefined) {
      await checkConfigReferences(businessId, input.config, ['body', 'config'], this.deps);
      next.config = await this.withSetupRule(businessId, input.config, current.config.system_prompt);
      if (input.customKey !== undefined) {
        next.custom_key_sealed = await this.deps.secretBox.seal(input.customKey, customKeyContext(businessId));
      } else if (!keepsCustomEndpoint(current.config, input.config)) {
        delete next.custom_key_sealed;
      }
    }
    return next;
  }

  private async withSetupRule(businessId: number, config: AssistantConfig, previousPrompt: string | null): Promise<AssistantConfig> {
    if (config.setup === null) return config;
    const business = await this.deps.businesses.getBusiness(businessId);
    const ruled = applySetupRule(
      { setup: config.setup, system_prompt: config.system_prompt },
      previousPrompt,
      business.profile,
      config.business_context,
    );
    return { ...config, setup: ruled.setup, system_prompt: ruled.system_prompt } as AssistantConfig;
  }
}

/**
 * Runs an assistant write; a resource its config names that was deleted after the config was
 * checked (the write's transaction refuses it) is the same 422 as one seen missing.
 */
async function referencesExisting<T>(config: AssistantConfig, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof ReferenceMissingError)) throw error;
    const { kind, id } = error.ref;
    const field = kind === 'tool' ? 'tool_ids' : kind === 'knowledge_base' ? 'knowledge_ids' : 'workflow_id';
    const index =
      kind === 'tool' ? [config.tool_ids.indexOf(id)] : kind === 'knowledge_base' ? [(config.knowledge_ids ?? []).indexOf(id)] : [];
    const what = kind === 'knowledge_base' ? 'knowledge base' : kind;
    throw new ValidationError([
      { loc: ['body', 'config', field, ...index], msg: `Value error, ${what} ${id} does not exist`, type: 'value_error', input: id },
    ]);
  }
}

/**
 * Whether a replaced config still talks to the endpoint the stored key was given for. The key is
 * write-only, so a client cannot see where it would go: a new `custom_url` (or a provider change)
 * without a new `custom_key` must not carry the old key to the new address.
 */
function keepsCustomEndpoint(before: AssistantConfig, after: AssistantConfig): boolean {
  return before.model.provider === 'custom' && after.model.provider === 'custom' && before.model.custom_url === after.model.custom_url;
}

/**
 * The full update a merge patch stands for: the patch applied to the assistant as GET shows it
 * (`{name, config}`). `name` and `config` cannot be removed (`null`): the result lacks them, and a
 * merge that leaves either out is a 422 `missing` at that field.
 */
function mergedBody(current: AssistantRecord, patch: unknown): unknown {
  const view = toAssistantView(current);
  const merged = applyMergePatch({ name: view.name, config: view.config }, patch);
  requireMembers(merged, ['name', 'config']);
  // A name the patch leaves as it is is not an update of it: an assistant created without a name
  // (allowed) stays patchable, although a name sent to change it must be 1 to 120 characters.
  if (isRecord(merged) && merged.name === view.name) {
    const { name: _unchanged, ...rest } = merged;
    return rest;
  }
  return merged;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Refuses (422 `missing`) a merged document without one of `names` (the schema checks the rest). */
function requireMembers(merged: unknown, names: string[]): void {
  if (merged === null || typeof merged !== 'object' || Array.isArray(merged)) return;
  const missing = names.filter((name) => !Object.hasOwn(merged, name));
  if (missing.length === 0) return;
  throw new ValidationError(
    missing.map((name) => ({ loc: ['body', name], msg: `Field required: a merge patch cannot remove ${name}`, type: 'missing' })),
  );
}
