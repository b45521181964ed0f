import type { NodeOf } from '../../../../../shared/domain/workflow';
import type { NodeBehaviour } from '../node-type';

/** `say`: the text verbatim (with `{{variables}}`), then `next`. */
export const sayNode: NodeBehaviour<NodeOf<'say'>> = {
  kind: 'act',
  act: (node, run) => ({ effect: { type: 'say', text: run.fill(node.text) }, wait: true }),
  resume: (node) => ({ next: node.next }),
};
