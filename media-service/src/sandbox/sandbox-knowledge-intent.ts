import { spokenExcerpt, SPOKEN_LINE_CHARS } from './sandbox-custom-tools';
import type { ToolIntent } from './sandbox-tool-intents';

/** A caller's question: a question mark, or a sentence that opens like one. */
const QUESTION =
  /\?\s*$|^\s*(?:(?:and|so|um|uh|hi|hello|yes|okay|ok)[\s,]+)*(what|when|where|how|do|does|did|is|are|can|could|will|which|who|why)\b/i;

/** The top passage, without its heading path ("Clinic > Opening hours: …" → "…"), as one spoken sentence or two. */
function spokenPassage(text: string): string {
  const body = text.replace(/^[^:\n]{1,120}:\s+/, '');
  const sentences = body.match(/[^.!?]+[.!?]+/g) ?? [body];
  const twoSentences = sentences
    .slice(0, 2)
    .map((sentence) => sentence.trim())
    .join(' ');
  return spokenExcerpt(twoSentences, SPOKEN_LINE_CHARS);
}

/**
 * The sandbox model's `search_knowledge` (sandbox-tool-intents.ts): a caller's question, when the
 * tool is offered and no other tool is asked for, is searched with the caller's own words, and the
 * top passage is read back; with nothing found, the model says it does not know.
 */
export const KNOWLEDGE_INTENT: ToolIntent = {
  tool: 'search_knowledge',
  asks: QUESTION,
  call: ({ said }) => ({ saying: 'Let me check that for you.', args: { query: said.trim().slice(0, 500) } }),
  speak(output) {
    const passages = Array.isArray(output.passages) ? (output.passages as { text?: unknown }[]) : [];
    const top = typeof passages[0]?.text === 'string' ? spokenPassage(passages[0].text) : '';
    return top === ''
      ? "I'm sorry, I don't know that, and I'd rather not guess. Is there anything else I can help you with?"
      : `Here is what I found: ${top} Is there anything else?`;
  },
};
