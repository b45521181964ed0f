import { fillVariables } from '../../../../shared/domain/call-script';
import type { RunState } from './node-type';

/**
 * What a node sees of the run over `variables` (the reducer's fresh copy for one step): a
 * variable's value, collected or a tool's, else the call's own; `{{name}}` filled from them, then
 * from the assistant's variables.
 */
export function runState(
  variables: Record<string, unknown>,
  callVariables: Readonly<Record<string, string>>,
  assistantVariables: Readonly<Record<string, string>>,
): RunState {
  return {
    variables,
    value: (name) => lookup(variables, name) ?? (Object.hasOwn(callVariables, name) ? callVariables[name] : undefined),
    fill: (text) => fillVariables(text, { ...callVariables, ...flatten(variables) }, assistantVariables),
  };
}

/** `a.b` reads into a tool's result (`{{check.available}}`); own keys only. */
function lookup(variables: Record<string, unknown>, name: string): unknown {
  let value: unknown = variables;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The variables as `{{name}}` texts: plain values as they read, a tool's result by its fields (`node.field`). */
function flatten(variables: Record<string, unknown>, prefix = ''): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      Object.assign(flat, flatten(value as Record<string, unknown>, `${prefix}${name}.`));
    else flat[`${prefix}${name}`] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}
