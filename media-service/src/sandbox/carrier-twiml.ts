/**
 * The TwiML subset the sandbox carrier executes, parsed from the XML our server sends (inline
 * `Twiml`, a fetched `Url`, or the voice webhook's answer): `<Connect><Stream>` with
 * `<Parameter>`s, `<Say>`, `<Pause>`, `<Dial>`, `<Hangup>`, `<Reject>`. Anything else is kept as
 * `unsupported` so the call record shows it instead of silently skipping it.
 */

/** One executable verb. */
export type TwimlVerb =
  | { verb: 'Connect'; stream?: TwimlStream }
  | { verb: 'Say'; text: string }
  | { verb: 'Pause'; lengthS: number }
  | { verb: 'Dial'; number: string; callerId?: string }
  | { verb: 'Hangup' }
  | { verb: 'Reject'; reason?: string }
  | { verb: 'unsupported'; name: string };

/** A `<Stream>` inside `<Connect>`. */
export interface TwimlStream {
  url: string;
  name?: string;
  parameters: Record<string, string>;
}

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Reverses XML escaping, including numeric character references. */
export function unescapeXml(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? whole;
  });
}

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function parseAttributes(source: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE)) attributes[match[1]!] = unescapeXml(match[2] ?? match[3] ?? '');
  return attributes;
}

/** A minimal XML element tree (no DTDs, no CDATA: TwiML needs neither). Throws on mismatched tags. */
function parseXml(xml: string): XmlElement {
  const body = xml.replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const root: XmlElement = { name: '#root', attributes: {}, children: [], text: '' };
  const stack = [root];
  let last = 0;
  for (const match of body.matchAll(TAG)) {
    const raw = body.slice(last, match.index);
    if (raw.includes('<')) throw new Error('malformed tag');
    stack.at(-1)!.text += unescapeXml(raw);
    last = match.index + match[0].length;
    const [, closing, name, attributes, selfClosing] = match;
    if (closing) {
      if (stack.length < 2 || stack.at(-1)!.name !== name) throw new Error(`unexpected </${name}>`);
      stack.pop();
      continue;
    }
    const element: XmlElement = { name: name!, attributes: parseAttributes(attributes ?? ''), children: [], text: '' };
    stack.at(-1)!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack.at(-1)!.name}>`);
  if (body.slice(last).includes('<')) throw new Error('malformed tag');
  return root;
}

function toVerb(element: XmlElement): TwimlVerb {
  switch (element.name) {
    case 'Connect': {
      const stream = element.children.find((child) => child.name === 'Stream');
      if (!stream || !stream.attributes.url) return { verb: 'Connect' };
      const parameters: Record<string, string> = {};
      for (const p of stream.children)
        if (p.name === 'Parameter' && p.attributes.name) parameters[p.attributes.name] = p.attributes.value ?? '';
      return {
        verb: 'Connect',
        stream: { url: stream.attributes.url, ...(stream.attributes.name && { name: stream.attributes.name }), parameters },
      };
    }
    case 'Say':
      return { verb: 'Say', text: element.text.trim() };
    case 'Pause':
      return { verb: 'Pause', lengthS: Number(element.attributes.length ?? '1') || 1 };
    case 'Dial': {
      const number = element.children.find((child) => child.name === 'Number')?.text ?? element.text;
      return { verb: 'Dial', number: number.trim(), ...(element.attributes.callerId && { callerId: element.attributes.callerId }) };
    }
    case 'Hangup':
      return { verb: 'Hangup' };
    case 'Reject':
      return { verb: 'Reject', ...(element.attributes.reason && { reason: element.attributes.reason }) };
    default:
      return { verb: 'unsupported', name: element.name };
  }
}

/** Parses a TwiML document into verbs; returns an error string for anything that is not `<Response>…</Response>`. */
export function parseTwiml(xml: string): TwimlVerb[] | string {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    return `invalid TwiML: ${(error as Error).message}`;
  }
  const response = root.children[0];
  if (root.children.length !== 1 || response?.name !== 'Response') return 'invalid TwiML: the root element must be <Response>';
  return response.children.map(toVerb);
}
