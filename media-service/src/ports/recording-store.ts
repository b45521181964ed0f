/** What the call session hands over when a recorded call ends. */
export interface SaveRecordingInput {
  businessId: number;
  callId: number;
  /** The whole recording (see CallRecorder.toWav). */
  wav: Uint8Array;
}

/**
 * Where finished call recordings go. The returned key is stored on the call as `recording_key`:
 * GET /calls/{id} presigns it and the retention function deletes it after `keep_days`.
 */
export interface RecordingStore {
  save(input: SaveRecordingInput): Promise<{ key: string }>;
}
