/**
 * Every part of a multipart recording but the last must be at least this long (S3's floor, 5 MiB;
 * fauxqs enforces it too). The recorder cuts its parts at exactly this size of WAV data.
 */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** Whose recording: the object is named after the tenant and the call. */
export interface RecordingTarget {
  businessId: number;
  callId: number;
}

/** A recording short enough to be written in one request. */
export interface SaveRecordingInput extends RecordingTarget {
  /** The whole WAV file (at most one part, see CallRecorder). */
  wav: Uint8Array;
}

/**
 * One recording being written in parts while the call runs (S3 multipart upload). Parts may be
 * put in any order and a number put again replaces that part; `complete` joins them in number
 * order into the object, `abort` discards them.
 */
export interface RecordingUpload {
  /** The object's key once completed (what the call stores as `recording_key`). */
  readonly key: string;
  /** Part `partNumber` (1 … 10 000); every part but the highest-numbered needs ≥ {@link MIN_PART_BYTES}. */
  putPart(partNumber: number, body: Uint8Array): Promise<void>;
  complete(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Where call recordings go. The key is stored on the call as `recording_key`: GET /calls/{id}
 * presigns it and the retention function deletes it after `keep_days`.
 */
export interface RecordingStore {
  /** Writes a short recording in one request and returns its key. */
  save(input: SaveRecordingInput): Promise<{ key: string }>;
  /** Starts a recording written part by part (long calls). */
  startUpload(target: RecordingTarget): Promise<RecordingUpload>;
}
