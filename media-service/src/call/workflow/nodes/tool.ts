import type { NodeOf } from '../../../../../shared/domain/workflow';
import type { NodeBehaviour, RunState } from '../node-type';

/** A tool's result kept in the variables at most this long (as JSON); a longer one keeps only whether it worked. */
const MAX_RESULT_CHARS = 2000;

const LONE = /^\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}$/;

/** The arguments: each text filled from the variables; a lone `{{name}}` passes the value with its type. */
export function toolArguments(args: Record<string, string>, run: RunState): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([name, template]) => {
      const lone = LONE.exec(template);
      const value = lone ? run.value(lone[1]!) : undefined;
      return [name, value !== undefined ? value : run.fill(template)];
    }),
  );
}

/** `tool`: runs a built-in or custom tool with arguments from the variables, keeps its result under the node's id, then `on_success` / `on_error`. */
export const toolNode: NodeBehaviour<NodeOf<'tool'>> = {
  kind: 'act',
  act: (node, run) => ({ effect: { type: 'run_tool', name: node.tool, args: JSON.stringify(toolArguments(node.args, run)) }, wait: true }),
  resume(node, run, result) {
    // The run resumes a tool node only with its tool's result; the check narrows the type.
    if (result.type !== 'tool_done') return { next: null };
    run.variables[node.id] = JSON.stringify(result.output).length <= MAX_RESULT_CHARS ? result.output : { ok: result.ok };
    return { next: result.ok ? node.on_success : node.on_error };
  },
};
