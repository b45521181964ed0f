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
  async act(node, run) {
    const result = await run.host.runTool(node.tool, JSON.stringify(toolArguments(node.args, run)));
    run.variables[node.id] = JSON.stringify(result.output).length <= MAX_RESULT_CHARS ? result.output : { ok: result.ok };
    return result.ok ? node.on_success : node.on_error;
  },
};
