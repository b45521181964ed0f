import { SANDBOX_TRANSCRIPTION_MODELS } from './openai-models';

/**
 * `POST /v1/audio/transcriptions` of the sandbox OpenAI: the multipart form openai-node sends
 * (`file`, `model`, `language`, `prompt`, `response_format`, `temperature`), checked as OpenAI
 * checks it (a supported file type, a transcription model, a response format that model can give,
 * at most 25 MB), answered with the next scripted transcript (or a fixed sentence). The sandbox
 * does not recognise speech: what it "hears" is what the test or developer queued.
 */

/** OpenAI's upload limit for one file: 25 MB. */
export const MAX_TRANSCRIPTION_BYTES = 25 * 1024 * 1024;

/** The file types the endpoint takes, by extension (OpenAI "Speech to text"). */
const AUDIO_EXTENSIONS = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];

/** What the sandbox says it heard when nothing was queued. */
export const DEFAULT_SANDBOX_TRANSCRIPT = 'Hello, this is the sandbox transcription.';

/** An answer: status, content type and body (JSON-encoded unless `text/plain`). */
export interface TranscriptionAnswer {
  status: number;
  contentType: 'application/json' | 'text/plain; charset=utf-8';
  body: string;
}

const fail = (message: string, param: string | null): TranscriptionAnswer => ({
  status: 400,
  contentType: 'application/json',
  body: JSON.stringify({ error: { message, type: 'invalid_request_error', param, code: null } }),
});

/** Seconds of audio in a WAV file (from its header), else the length as 8 kHz μ-law. */
export function audioSeconds(bytes: Uint8Array): number {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length >= 44 && view.toString('ascii', 0, 4) === 'RIFF' && view.toString('ascii', 8, 12) === 'WAVE') {
    const byteRate = view.readUInt32LE(28);
    if (byteRate > 0) return (view.length - 44) / byteRate;
  }
  return view.length / 8000;
}

/** Reads the form and answers it; `transcript` is what the sandbox heard. */
export async function transcribe(body: Buffer, contentType: string, transcript: string): Promise<TranscriptionAnswer> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return fail('The request must be multipart/form-data with a file.', null);
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) return fail("Missing required parameter: 'file'.", 'file');
  const model = String(form.get('model') ?? '');
  if (model === '') return fail("Missing required parameter: 'model'.", 'model');
  if (!SANDBOX_TRANSCRIPTION_MODELS.includes(model)) return fail(`Invalid model ${model.slice(0, 80)}.`, 'model');
  const name = file instanceof File ? file.name : '';
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (!extension || !AUDIO_EXTENSIONS.includes(extension))
    return fail(`Invalid file format. Supported formats: ${JSON.stringify(AUDIO_EXTENSIONS)}`, 'file');
  const format = String(form.get('response_format') ?? 'json');
  const whisper = model === 'whisper-1';
  if (!['json', 'text', ...(whisper ? ['srt', 'verbose_json', 'vtt'] : [])].includes(format))
    return fail(`response_format '${format.slice(0, 40)}' is not compatible with model '${model}'.`, 'response_format');
  const seconds = Math.round(audioSeconds(new Uint8Array(await file.arrayBuffer())) * 100) / 100;
  return formatted(format, transcript, seconds, String(form.get('language') ?? 'en'));
}

function formatted(format: string, text: string, seconds: number, language: string): TranscriptionAnswer {
  const json = (value: unknown): TranscriptionAnswer => ({ status: 200, contentType: 'application/json', body: JSON.stringify(value) });
  const plain = (value: string): TranscriptionAnswer => ({ status: 200, contentType: 'text/plain; charset=utf-8', body: value });
  const end = new Date(seconds * 1000).toISOString().slice(11, 23);
  switch (format) {
    case 'text':
      return plain(`${text}\n`);
    case 'srt':
      return plain(`1\n00:00:00,000 --> ${end.replace('.', ',')}\n${text}\n\n`);
    case 'vtt':
      return plain(`WEBVTT\n\n00:00:00.000 --> ${end}\n${text}\n\n`);
    case 'verbose_json':
      return json({
        task: 'transcribe',
        language,
        duration: seconds,
        text,
        segments: [
          {
            id: 0,
            seek: 0,
            start: 0,
            end: seconds,
            text,
            tokens: [],
            temperature: 0,
            avg_logprob: 0,
            compression_ratio: 1,
            no_speech_prob: 0,
          },
        ],
        usage: { type: 'duration', seconds: Math.ceil(seconds) },
      });
    default:
      return json({ text, usage: { type: 'duration', seconds: Math.ceil(seconds) } });
  }
}
