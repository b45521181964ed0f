import type { NodeOf } from '../../../../../shared/domain/workflow';
import type { NodeBehaviour } from '../node-type';

/** `say`: the text verbatim (with `{{variables}}`), then `next`. */
export const sayNode: NodeBehaviour<NodeOf<'say'>> = {
  kind: 'act',
  async act(node, run) {
    await run.host.say(run.fill(node.text));
    return node.next;
  },
};
