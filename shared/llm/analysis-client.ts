import OpenAI from 'openai';
import { buildAnalysisResponseFormat, type AnalysisConfig } from '../domain/analysis-schema';
import type { ChatMessage } from '../domain/analysis';

/** The model the analysis runs on unless configured otherwise (cheap, supports strict json_schema). */
export const DEFAULT_ANALYSIS_MODEL = 'gpt-4o-mini';

/** One provider budget per analysis request; the Lambda's own timeout is longer. */
export const ANALYSIS_TIMEOUT_MS = 60_000;

/** Port: ask the model for one call's analysis; resolves with the parsed JSON answer. */
export interface AnalysisModel {
  analyse(cfg: AnalysisConfig, messages: readonly ChatMessage[]): Promise<unknown>;
}

/** Settings of {@link OpenAiAnalysisClient}. */
export interface AnalysisClientOptions {
  apiKey: string;
  /** Point at another OpenAI-compatible server (the sandbox in tests and `npm run dev`). */
  baseURL?: string;
  model?: string;
  timeoutMs?: number;
}

/** The model answered, but not with JSON text (worth another attempt). */
export class AnalysisResponseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnalysisResponseError';
  }
}

/**
 * Chat-completions client for the post-call analysis: one non-streamed request with
 * `response_format: json_schema` in strict mode. The SDK's own retries are off (`maxRetries: 0`):
 * retrying is the event router's or Lambda's job, so one invocation never hides minutes of backoff.
 */
export class OpenAiAnalysisClient implements AnalysisModel {
  readonly #client: OpenAI;
  readonly #model: string;

  constructor(options: AnalysisClientOptions) {
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? ANALYSIS_TIMEOUT_MS,
    });
    this.#model = options.model ?? DEFAULT_ANALYSIS_MODEL;
  }

  async analyse(cfg: AnalysisConfig, messages: readonly ChatMessage[]): Promise<unknown> {
    const completion = await this.#client.chat.completions.create({
      model: this.#model,
      messages: messages.map((message) => ({ role: message.role, content: message.content })),
      response_format: buildAnalysisResponseFormat(cfg),
      temperature: 0,
    });
    const content = completion.choices[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') throw new AnalysisResponseError('the analysis reply had no content');
    try {
      return JSON.parse(content) as unknown;
    } catch {
      throw new AnalysisResponseError('the analysis reply was not JSON');
    }
  }
}
