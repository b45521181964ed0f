import type { Assistant, AssistantList } from '../domain/assistant';
import { parseCreateAssistantBody, parseListAssistantsQuery, parseUpdateAssistantBody } from '../domain/assistant';
import * as v from 'valibot';
import { AssistantConfigStoredSchema, parseAssistantConfig, toConfigView, type AssistantConfig } from '../domain/assistant-config';
import { applySetupRule } from '../domain/setup-prompt';
import { templateConfig } from '../domain/templates';
import type { AssistantRecord, AssistantRepository } from '../db/assistant-repository';
import type { BusinessRepository } from '../db/business-repository';
import type { CatalogRepository } from '../db/catalog-repository';
import type { IdAllocator } from '../db/ids';
import type { PageCursors } from '../db/page-cursor';
import type { SecretBox } from '../security/secret-box';
import { checkConfigReferences, type UrlPolicy, type WorkflowLookup } from './config-checks';
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

  async get(businessId: number, assistantId: number): Promise<Assistant> {
    return toAssistantView(await this.deps.assistants.getAssistant(businessId, assistantId));
  }

  /** A full `config` overrides the template; otherwise the template's config (with defaults). */
  async create(businessId: number, body: unknown): Promise<Assistant> {
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
    return toAssistantView(await this.deps.assistants.insertAssistant(businessId, record));
  }

  /** `config` replaces the whole configuration; a name-only update leaves it untouched. */
  async update(businessId: number, assistantId: number, body: unknown): Promise<Assistant> {
    const input = parseUpdateAssistantBody(body);
    const current = await this.deps.assistants.getAssistant(businessId, assistantId);
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
    await this.deps.assistants.replaceAssistant(businessId, next);
    return toAssistantView(next);
  }

  async delete(businessId: number, assistantId: number): Promise<{ id: number; deleted: true }> {
    const current = await this.deps.assistants.getAssistant(businessId, assistantId);
    await this.deps.assistants.deleteAssistant(businessId, current);
    return { id: assistantId, deleted: true };
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
 * Whether a replaced config still talks to the endpoint the stored key was given for. The key is
 * write-only, so a client cannot see where it would go: a new `custom_url` (or a provider change)
 * without a new `custom_key` must not carry the old key to the new address.
 */
function keepsCustomEndpoint(before: AssistantConfig, after: AssistantConfig): boolean {
  return before.model.provider === 'custom' && after.model.provider === 'custom' && before.model.custom_url === after.model.custom_url;
}
