import type { NodeOf } from '../../../../../shared/domain/workflow';
import type { NodeBehaviour } from '../node-type';

/** `end`: its text (else the assistant's end message), then the call ends. */
export const endNode: NodeBehaviour<NodeOf<'end'>> = {
  kind: 'act',
  act: (node, run) => ({ effect: { type: 'end', text: run.fill(node.text) }, next: null }),
};
