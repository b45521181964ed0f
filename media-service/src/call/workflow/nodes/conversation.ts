import { DEFAULT_MAX_TURNS, type NodeOf } from '../../../../../shared/domain/workflow';
import { NEXT_STEP_TOOL, stepTool, type NodeBehaviour } from '../node-type';

/** `conversation`: the model talks under the node's prompt and leaves by `next_step` along one of its edges. */
export const conversationNode: NodeBehaviour<NodeOf<'conversation'>> = {
  kind: 'talk',
  instructions(node, run) {
    const lines = [`Workflow step "${node.id}". ${run.fill(node.prompt)}`];
    if (node.edges.length > 0) {
      lines.push(`When one of these holds, call ${NEXT_STEP_TOOL} with its step (say nothing about steps to the caller):`);
      lines.push(...node.edges.map((edge) => `- ${edge.to}: ${edge.when}`));
    }
    if (node.final) lines.push('The call may end at this step.');
    return lines.join('\n');
  },
  stepTool: (node) => (node.edges.length > 0 ? stepTool(node.edges) : undefined),
  accept(node, args) {
    const to = args.step;
    if (typeof to === 'string' && node.edges.some((edge) => edge.to === to)) return { to };
    return { error: `step must be one of: ${node.edges.map((edge) => edge.to).join(', ')}.` };
  },
  maxTurns: (node) => node.max_turns ?? DEFAULT_MAX_TURNS.conversation,
  onStuck: (node) => node.on_stuck ?? null,
};
