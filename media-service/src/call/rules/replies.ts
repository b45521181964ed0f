import { containsEndPhrase } from '../../../../shared/domain/call-script';
import type { Facts, NamedCall } from './call-types';
import { ending, type Draft } from './draft';
import { endCall } from './endings';
import { afterSpeech, reply } from './floor';

/**
 * What a finished reply means, as part of the call's reducer: its `end_call` or `transfer` tool,
 * its other tools (run together, then the model is asked again with their results, at most
 * {@link MAX_TOOL_ROUNDS} rounds in a row), or an end phrase; otherwise the call goes on.
 */

/** Tool rounds in a row (without the caller speaking) after which the model must answer; a model looping on tools stops. */
export const MAX_TOOL_ROUNDS = 3;

/** Said while a tool is still running after `toolFillerAfterMs`, when the tool names no line of its own. */
export const TOOL_FILLER_LINE = 'One moment while I take care of that.';

/** A reply played to the end with `text` and tool `calls` (`toolFiller`: the line its tools ask for while they run). */
export function afterReply<Call extends NamedCall>(
  d: Draft<Call>,
  text: string,
  calls: readonly Call[],
  toolFiller: string,
  facts: Facts,
): void {
  const endTool = calls.find((call) => call.name === 'end_call');
  if (endTool) {
    d.fx.push({ type: 'transcript', role: 'tool', line: 'end_call' }, { type: 'record_end_call', call: endTool });
    return endCall(d, 'assistant_ended', { goodbye: d.set.endCallMessage !== '' && text === '' });
  }
  const transfer = calls.find((call) => call.name === 'transfer');
  if (transfer) {
    d.s.ending = { ...d.s.ending, reason: 'transferred' };
    d.fx.push({ type: 'transfer', call: transfer });
    return;
  }
  if (calls.length > 0 && d.s.tools.rounds < MAX_TOOL_ROUNDS) {
    d.s.tools = { rounds: d.s.tools.rounds + 1, running: d.s.tools.running + 1, filler: toolFiller || TOOL_FILLER_LINE };
    d.fx.push({ type: 'arm', timer: 'tool-filler', ms: d.set.toolFillerAfterMs }, { type: 'run_tools', calls });
    return;
  }
  const tooMany = JSON.stringify({ error: 'Too many tool calls in a row. Answer the caller now.' });
  for (const call of calls) d.fx.push({ type: 'tool_result', call, output: tooMany });
  if (containsEndPhrase(text, d.set.endCallPhrases)) return endCall(d, 'end_phrase', { goodbye: false });
  afterSpeech(d, facts);
}

/** A reply's tools finished: their lines go to the transcript and, unless the call is ending, their results to the model, which answers again. */
export function toolsDone<Call extends NamedCall>(
  d: Draft<Call>,
  calls: readonly Call[],
  outputs: readonly string[],
  lines: readonly string[],
): void {
  d.s.tools = { ...d.s.tools, running: d.s.tools.running - 1 };
  d.fx.push({ type: 'cancel', timer: 'tool-filler' });
  for (const line of lines) d.fx.push({ type: 'transcript', role: 'tool', line });
  if (ending(d)) return;
  calls.forEach((call, index) => d.fx.push({ type: 'tool_result', call, output: outputs[index]! }));
  reply(d, 'reply');
}

/** The transfer failed: the call goes on, the model learns it, and the caller hears the documented line. */
export function transferFailed<Call extends NamedCall>(d: Draft<Call>, call: Call): void {
  if (d.s.ending.reason === 'transferred') d.s.ending = { ...d.s.ending, reason: undefined };
  d.fx.push({ type: 'tool_result', call, output: JSON.stringify({ error: 'The transfer failed.' }) });
  d.fx.push({ type: 'say', kind: 'reply', text: d.set.transferFailedLine, turn: false });
}
