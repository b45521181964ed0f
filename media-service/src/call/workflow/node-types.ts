import { branchNode } from './nodes/branch';
import { collectNode } from './nodes/collect';
import { conversationNode } from './nodes/conversation';
import { endNode } from './nodes/end';
import { sayNode } from './nodes/say';
import { toolNode } from './nodes/tool';
import { transferNode } from './nodes/transfer';
import type { NodeTable } from './node-type';

/** Every node type's behaviour, one module each: a new type is a module, its schema and an entry here. */
export const NODE_TYPES: NodeTable = {
  say: sayNode,
  conversation: conversationNode,
  collect: collectNode,
  branch: branchNode,
  tool: toolNode,
  transfer: transferNode,
  end: endNode,
};
