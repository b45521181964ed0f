import { describe, expect, it } from 'vitest';
import { parseCreateWorkflowBody, type Workflow } from '../../../../shared/domain/workflow';
import { workflowRules } from '../../../../media-service/src/call/rules/workflow-slot';
import { TOOL_FILLER_LINE } from '../../../../media-service/src/call/rules/replies';
import { AUDIBLE, digit, fakeWorkflow, NOTICE, only, run, said, settings, start, table, timer } from '../support/call-rules';

/**
 * Keys and workflows, and the notice with a workflow that opens with a tool: found by trying whole
 * calls (keys pressed during the notice and during a tool node were answered twice, or before the
 * workflow's own line; a tool node at the start left the caller in silence until it returned).
 */

const SPEECH = ['say', 'reply', 'barge_in', 'user_words'];

table('keypad × workflow', [
  {
    name: "keys while a step line speaks are the workflow's: its next line, not a model reply",
    settings: settings({ workflow: fakeWorkflow() }),
    given: [start, timer('greet')],
    when: [digit('4'), digit('#', AUDIBLE)],
    kinds: SPEECH,
    effects: ['barge_in', 'user_words "[keypad] 4 #"', 'say reply (turn, step): Step two: your date of birth?'],
  },
  {
    name: 'live: keys over the notice are answered, and the greeting’s question gives way to them',
    settings: settings({ mode: 'live', notice: NOTICE }),
    given: [start, timer('greet')],
    when: [digit('4'), digit('#', AUDIBLE), said('notice', { heard: true })],
    kinds: SPEECH,
    effects: ['user_words "[keypad] 4 #"', 'reply reply'],
  },
]);

function toolFirst(): Workflow {
  const body = {
    name: 'Order status',
    start: 'look',
    nodes: [
      { id: 'look', type: 'tool', tool: 'lookup_order', args: {}, on_success: 'tell', on_error: 'tell' },
      { id: 'tell', type: 'say', text: 'Your order has shipped.', next: 'bye' },
      { id: 'bye', type: 'end', text: '' },
    ],
  };
  return { id: 1, created_at: '', updated_at: '', ...parseCreateWorkflowBody(body) } as Workflow;
}

describe('a workflow that opens with a tool node', () => {
  const rules = () => workflowRules({ workflow: toolFirst(), callVariables: {}, assistantVariables: {} });

  it('says the notice while the tool runs, and a filler once it is slow: never dead air', () => {
    // Act
    const { effects } = run(settings({ notice: NOTICE, workflow: rules() }), [start], [timer('greet'), timer('tool-filler')]);
    // Assert
    expect(only(effects, 'say', 'run_workflow_tool', 'arm tool-filler')).toEqual([
      `say notice: ${NOTICE}`,
      'arm tool-filler 1000',
      'run_workflow_tool lookup_order',
      `say filler: ${TOOL_FILLER_LINE}`,
    ]);
  });

  it('the tool done stops the filler timer, and the node after it speaks', () => {
    // Act
    const { effects } = run(
      settings({ notice: NOTICE, workflow: rules() }),
      [start, timer('greet'), said('notice', { heard: true })],
      [{ type: 'workflow_tool_done', ok: true, output: { status: 'shipped' }, facts: { ...AUDIBLE, audible: false, speaking: false } }],
    );
    // Assert
    expect(only(effects, 'cancel tool-filler', 'say')).toEqual(['cancel tool-filler', 'say reply (turn, step): Your order has shipped.']);
  });
});
