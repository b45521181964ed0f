/** What the engine asks the carrier to do when placing an outbound call. */
export interface PlaceCallRequest {
  to: string;
  from: string;
  /** The media WebSocket Twilio connects to (wss://…). */
  streamUrl: string;
  /** Carried as `<Parameter>`s; arrive in the stream's `start.customParameters`. */
  parameters: Record<string, string>;
  statusCallbackUrl: string;
  /** Asynchronous answering-machine detection (`advanced.voicemail_detection`). */
  machineDetection: boolean;
  amdCallbackUrl: string;
  /** Ring time before `no-answer`, seconds. */
  timeoutS: number;
  /** Hard cap of the call, seconds (the minutes reserved for it). */
  timeLimitS: number;
}

/**
 * Port: the phone network. Busy, no-answer and failures after dialling arrive through the status
 * callbacks, not as errors here; errors here mean the carrier refused the request (ProviderError).
 */
export interface Telephony {
  placeCall(request: PlaceCallRequest): Promise<{ callSid: string }>;
  hangup(callSid: string): Promise<void>;
  transfer(callSid: string, toNumber: string, callerId?: string): Promise<void>;
}
