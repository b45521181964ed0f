import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { EMBEDDING_DIMENSIONS, type Embedder } from '../knowledge/embeddings';

/** What the knowledge function answers to `{"embed": [...]}`: base64 little-endian float32 vectors. */
export interface EmbedReply {
  vectors: string[];
}

/** Queries embedded per invocation at most (a search embeds one). */
export const MAX_EMBED_INVOKE_TEXTS = 16;

/**
 * Embeddings through the knowledge function (functions/knowledge-ingest), invoked synchronously:
 * the internet-facing API reads no provider secret (docs/decisions.md "Knowledge bases"), so it
 * asks the function that holds the platform key to embed its search queries.
 */
export class LambdaEmbedder implements Embedder {
  readonly dimensions = EMBEDDING_DIMENSIONS;

  constructor(
    private readonly lambda: LambdaClient,
    private readonly functionName: string,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += MAX_EMBED_INVOKE_TEXTS) {
      const result = await this.lambda.send(
        new InvokeCommand({
          FunctionName: this.functionName,
          Payload: Buffer.from(JSON.stringify({ embed: texts.slice(i, i + MAX_EMBED_INVOKE_TEXTS) })),
        }),
      );
      if (result.FunctionError) throw new Error(`the knowledge function failed to embed (${result.FunctionError})`);
      const reply = JSON.parse(Buffer.from(result.Payload ?? new Uint8Array()).toString('utf8')) as EmbedReply;
      for (const encoded of reply.vectors) {
        const bytes = Buffer.from(encoded, 'base64');
        out.push(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
      }
    }
    return out;
  }
}
