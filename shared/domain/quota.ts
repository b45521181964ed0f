import { QuotaExceededError } from '../errors';
import { KNOWLEDGE_LIMITS } from './knowledge';
import { TOOL_LIMITS } from './tool';
import { WORKFLOW_LIMITS } from './workflow';

/**
 * Per-business quotas (docs/decisions.md "Quotas"): how many of each countable resource a business
 * may hold. Each is taken in the create's own transaction and given back in the delete's, so no
 * number of concurrent creates passes it; ops change a business's quotas with `admin set-quota`.
 */

/** The countable resources, by the name ops and error details use. */
export const QUOTA_NAMES = ['assistants', 'workflows', 'tools', 'knowledge_bases', 'documents', 'phone_numbers'] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];
export type Quotas = Record<QuotaName, number>;

/**
 * The quotas of a business ops did not change. Limits that existed before quotas keep their value
 * (tools, workflows, knowledge bases, documents); assistants are 100, so a full list of 128 KiB
 * configs stays ~13 MB read; phone numbers 50. `documents` is per knowledge base.
 */
export const DEFAULT_QUOTAS: Quotas = {
  assistants: 100,
  workflows: WORKFLOW_LIMITS.workflowsPerBusiness,
  tools: TOOL_LIMITS.toolsPerBusiness,
  knowledge_bases: KNOWLEDGE_LIMITS.basesPerBusiness,
  documents: KNOWLEDGE_LIMITS.documentsPerBase,
  phone_numbers: 50,
};

/** The highest quota ops may set: ten times every default, so one business's partition stays bounded. */
export const MAX_QUOTA = 1000;

/** What each quota counts, in words ("100 workflows", "100 documents per knowledge base"). */
const COUNTED: Record<QuotaName, string> = {
  assistants: 'assistants',
  workflows: 'workflows',
  tools: 'tools',
  knowledge_bases: 'knowledge bases',
  documents: 'documents',
  phone_numbers: 'phone numbers',
};

/** The detail of a `quota_exceeded` refusal: the quota by name and its value. */
export function quotaExceededMessage(name: QuotaName, quota: number): string {
  if (name === 'documents')
    return `This knowledge base has reached its quota of ${quota} documents (quota: documents = ${quota}, per knowledge base).`;
  return `This business has reached its quota of ${quota} ${COUNTED[name]} (quota: ${name} = ${quota}).`;
}

/** A business's quotas: the defaults with ops' overrides over them (unknown or invalid overrides ignored). */
export function effectiveQuotas(overrides: Record<string, unknown> | undefined): Quotas {
  const quotas = { ...DEFAULT_QUOTAS };
  for (const name of QUOTA_NAMES) {
    const value = overrides?.[name];
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) quotas[name] = value;
  }
  return quotas;
}

/** The refusal of a create past `name`'s quota of `quota`. */
export function quotaExceeded(name: QuotaName, quota: number): QuotaExceededError {
  return new QuotaExceededError(name, quota, quotaExceededMessage(name, quota));
}
