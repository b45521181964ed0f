import type { LlmToolDefinition } from '../ports/language-model';
import type { CallContext } from './call-context';
import type { WorkflowSteering } from './rules/workflow-slot';

/**
 * How a live call follows its workflow (docs/design.md "Workflows", "Live mode"). The rules are
 * the same as in standard mode (the workflow is part of the call's reducer), so the path and the
 * variables are the same. What differs is how the model is steered: Realtime answers a caller's
 * turn on its own, with the session's instructions and tools, so on entering each node the
 * session is updated (the assistant's prompt plus the node's instructions; the call's tools plus
 * `next_step`), where standard mode shapes each request.
 */
export function liveSteering(
  context: Pick<CallContext, 'script' | 'tools'>,
  steering: WorkflowSteering | undefined,
): { key: string; instructions: string; tools: LlmToolDefinition[] } {
  const { script, tools } = context;
  return {
    key: JSON.stringify([script.systemPrompt, steering?.instructions ?? null, steering?.tool ?? null]),
    instructions: steering ? `${script.systemPrompt}\n\n${steering.instructions}` : script.systemPrompt,
    tools: steering?.tool ? [...tools, steering.tool] : [...tools],
  };
}
