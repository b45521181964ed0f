/**
 * Provider faults a call survived or ended on, as the adapters report them to the call that opened
 * them: each is logged (`call.provider.fault`) and counted in the call's `metrics.faults`
 * (docs/design.md "Provider faults").
 */
export type ProviderFaultKind =
  /** The recogniser's socket dropped and a new one took over (the caller's audio replayed). */
  | 'stt_reconnects'
  /** The voice's socket dropped and a new one took over (the unspoken text sent again). */
  | 'tts_reconnects'
  /** The model failed (5xx, connection, stall) and `model.fallback` answered instead, for the rest of the call. */
  | 'model_fallbacks'
  /** The model failed with no fallback left: the call's failure path follows. */
  | 'model_errors'
  /** A tool ran past its timeout: the model got the tool's error words. */
  | 'tool_timeouts';

/** Every kind, in the order `metrics.faults` lists them. */
export const PROVIDER_FAULT_KINDS = [
  'stt_reconnects',
  'tts_reconnects',
  'model_fallbacks',
  'model_errors',
  'tool_timeouts',
] as const satisfies readonly ProviderFaultKind[];

/** Receives one fault: its kind and a short description (no call content). */
export type FaultListener = (kind: ProviderFaultKind, detail: string) => void;
