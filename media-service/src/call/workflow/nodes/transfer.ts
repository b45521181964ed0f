import type { NodeOf } from '../../../../../shared/domain/workflow';
import type { NodeBehaviour } from '../node-type';

/** `transfer`: an optional line, then the caller goes to `number` (else the profile's transfer number). */
export const transferNode: NodeBehaviour<NodeOf<'transfer'>> = {
  kind: 'act',
  act(node, run) {
    if (node.text !== '') return { effect: { type: 'say', text: run.fill(node.text) }, wait: true };
    return { effect: { type: 'transfer', number: node.number }, next: null };
  },
  resume: (node) => ({ effect: { type: 'transfer', number: node.number }, next: null }),
};
