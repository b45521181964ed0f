/**
 * What the built-in sandbox people say, in the language of the call: a callee on a Spanish
 * assistant answers in Spanish. The language is the one the call's recogniser was told (the
 * transcript board records it). Keyed by the English line of `scenarios.ts`; Spanish covers every
 * scenario, the other languages the default caller; a line without a translation stays English,
 * as does every line of a test's own script.
 */
const LINES: Record<string, Record<string, string>> = {
  'Hello, this is Sam speaking.': {
    es: 'Hola, soy Sam.',
    fr: "Bonjour, c'est Sam à l'appareil.",
    de: 'Hallo, hier spricht Sam.',
    it: 'Pronto, sono Sam.',
    nl: 'Hallo, met Sam.',
    ja: 'もしもし、サムです。',
    pt: 'Olá, aqui é o Sam.',
    hi: 'नमस्ते, मैं सैम बोल रहा हूँ।',
    ru: 'Здравствуйте, это Сэм.',
  },
  'Sure. Before that, are you open on Saturday mornings?': {
    es: 'Claro. Antes de eso, ¿abren los sábados por la mañana?',
    fr: 'Bien sûr. Avant cela, êtes-vous ouverts le samedi matin ?',
    de: 'Gern. Vorher noch: Haben Sie samstagvormittags geöffnet?',
    it: 'Certo. Prima però, siete aperti il sabato mattina?',
    nl: 'Zeker. Maar eerst: bent u op zaterdagochtend open?',
    ja: 'はい。その前に、土曜日の午前中は営業していますか？',
    pt: 'Claro. Antes disso, vocês abrem no sábado de manhã?',
    hi: 'ज़रूर। उससे पहले, क्या आप शनिवार सुबह खुले रहते हैं?',
    ru: 'Конечно. Но сначала: вы работаете в субботу утром?',
  },
  'Tuesday at ten works for me.': {
    es: 'El martes a las diez me va bien.',
    fr: 'Mardi à dix heures me convient.',
    de: 'Dienstag um zehn passt mir.',
    it: 'Martedì alle dieci va bene per me.',
    nl: 'Dinsdag om tien uur komt mij goed uit.',
    ja: '火曜日の十時で大丈夫です。',
    pt: 'Terça às dez está ótimo para mim.',
    hi: 'मंगलवार दस बजे मेरे लिए ठीक है।',
    ru: 'Вторник в десять мне подходит.',
  },
  'Great, thank you. Goodbye!': {
    es: 'Perfecto, gracias. ¡Adiós!',
    fr: 'Parfait, merci. Au revoir !',
    de: 'Prima, danke. Auf Wiederhören!',
    it: 'Perfetto, grazie. Arrivederci!',
    nl: 'Prima, dank u wel. Tot ziens!',
    ja: 'ありがとうございます。失礼します。',
    pt: 'Ótimo, obrigado. Tchau!',
    hi: 'बढ़िया, धन्यवाद। अलविदा!',
    ru: 'Отлично, спасибо. До свидания!',
  },
  "Hi, you've reached Jordan Lee. I can't take your call right now. Please leave a message after the tone.": {
    es: 'Hola, ha llamado a Jordan Lee. Ahora no puedo atenderle. Por favor, deje un mensaje después de la señal.',
  },
  "Hi, who's calling?": { es: 'Hola, ¿quién llama?' },
  'Sorry, can I stop you there? How long will this take?': { es: 'Perdone, ¿puedo interrumpirle? ¿Cuánto va a durar esto?' },
  'Okay, okay, I get it.': { es: 'Vale, vale, ya lo entiendo.' },
  'Thanks. Bye.': { es: 'Gracias. Adiós.' },
  'Hello?': { es: '¿Diga?' },
  'Thanks, bye.': { es: 'Gracias, adiós.' },
};

/** `text` as said in `language` (ISO 639-1), or `text` itself when there is no translation. */
export function calleeLine(text: string, language: string | undefined): string {
  if (language === undefined || language === 'en') return text;
  return LINES[text]?.[language] ?? text;
}
