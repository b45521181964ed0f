import type { AssistantConfig } from './assistant-config';
import { fixedLines } from './fixed-lines';
import { callLanguage } from './languages';

/**
 * "Thank you for calling" and its common variants, one pattern per supported language. A greeting
 * that matches one was written for people who rang in, so an outbound call never says it unless
 * the business chose it as `outbound_first_message`. Every language is checked whatever the
 * assistant's own, because businesses write greetings in the language they think in.
 */
const THANKS_FOR_CALLING: readonly RegExp[] = [
  /\b(?:thanks|thank you|thank u)\b[^.!?]{0,40}?\bfor (?:calling|ringing|phoning|your call|the call|contacting|reaching out|getting in touch)\b/i,
  /\bgracias\b[^.!?¿¡]{0,40}?\bpor (?:llamar|su llamada|tu llamada|comunicarse|comunicarte|contactar)/i,
  /\bmerci\b[^.!?]{0,40}?(?:d['’]avoir appel|de votre appel|pour votre appel|de ton appel|pour ton appel|d['’]appeler)/i,
  /\bdanke?\b[^.!?]{0,40}?(?:für (?:ihren|deinen|den) anruf|dass sie (?:uns )?an(?:ge)?rufen|dass du (?:uns )?(?:anrufst|angerufen))/i,
  /\bgrazie\b[^.!?]{0,40}?\bper (?:aver(?:ci|mi)? chiamat|la (?:sua |tua |vostra )?chiamata)/i,
  /\b(?:bedankt|dank u|dank je)\b[^.!?]{0,40}?\bvoor (?:het bellen|uw (?:telefoontje|oproep|belletje)|je (?:telefoontje|oproep|belletje))/i,
  /電話[^。！？!?]{0,15}ありがと/,
  /(?:\bobrigad[oa]s?\b|\bagrade[cç])[^.!?]{0,40}?(?:\bpor (?:ligar|ter ligado|nos ligar|sua ligação|sua chamada)|\bpela (?:sua )?(?:ligação|chamada))/i,
  /(?:कॉल|फ़ोन|फोन) करने के लिए (?:आपका )?(?:धन्यवाद|शुक्रिया)/,
  /спасибо[^.!?]{0,40}?(?:за (?:ваш |твой )?звонок|что (?:вы |ты )?позвонил)/i,
];

/**
 * True when `text` thanks the listener for calling, in any supported language.
 *
 * @example thanksForCalling('Hi, thanks so much for calling Acme!') // true
 */
export function thanksForCalling(text: string): boolean {
  return THANKS_FOR_CALLING.some((pattern) => pattern.test(text));
}

/**
 * The greeting of a call by its direction (docs/design.md "How each setting is honoured"), its
 * `{{variables}}` filled by `fill`. Inbound: `first_message`. Outbound: `outbound_first_message`;
 * when that is empty, `first_message` unless it thanks the person for calling, and then the
 * standard outbound line in the assistant's language, naming the business. '' means the model
 * writes the greeting (an empty `first_message` on either direction).
 *
 * @example greetingFor(config, 'outbound', fill, 'Harbor Dental') // 'Hello, this is Harbor Dental calling. Do you have a moment?'
 */
export function greetingFor(
  config: AssistantConfig,
  direction: 'inbound' | 'outbound',
  fill: (text: string) => string,
  businessName: string,
): string {
  const inbound = fill(config.first_message);
  if (direction === 'inbound') return inbound;
  const outbound = fill(config.outbound_first_message);
  if (outbound !== '') return outbound;
  if (!thanksForCalling(inbound)) return inbound;
  return fixedLines(callLanguage(config).code).outboundGreeting(businessName);
}
