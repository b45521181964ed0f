import type { NodeOf } from '../../../../../shared/domain/workflow';
import type { NodeBehaviour } from '../node-type';

/** `transfer`: an optional line, then the caller goes to `number` (else the profile's transfer number). */
export const transferNode: NodeBehaviour<NodeOf<'transfer'>> = {
  kind: 'act',
  async act(node, run) {
    if (node.text !== '') await run.host.say(run.fill(node.text));
    run.host.transfer(node.number);
    return null;
  },
};
