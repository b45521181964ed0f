import type { LanguageCode } from './languages';

/**
 * Every line the service itself says on a call (not the assistant's configured text, nor the
 * model's words), in every supported language: one table, so a new line or language is one
 * entry and a unit test checks that each language has every line. `{ai}` and `{name}` are filled
 * by {@link fixedLines}.
 */
interface LineTable {
  /** The notice, by what it covers; `{ai}` is `ai.named` or `ai.unnamed`. */
  notice: { both: string; ai: string; recorded: string };
  ai: { named: string; unnamed: string };
  /** Said when a provider fails mid-call, before the call ends (`safety_fallback`). */
  fallback: string;
  /** Said when a reply's first words are slow (`fillers`), in turn. */
  fillers: readonly [string, string, string];
  /** Said when a transfer could not reach anyone. */
  transferFailed: string;
  /** Said to an inbound caller the service cannot take (no minutes, at the concurrency cap). */
  cannotTakeCall: string;
  /**
   * The greeting of an outbound call whose assistant has none fit for one (`greeting.ts`): who
   * is calling and whether now suits, never thanks for calling; `{name}` is the business.
   */
  outbound: { named: string; unnamed: string };
}

const LINES: Record<LanguageCode, LineTable> = {
  en: {
    notice: {
      both: 'Just so you know, {ai}, and this call is recorded.',
      ai: 'Just so you know, {ai}.',
      recorded: 'Just so you know, this call is recorded.',
    },
    ai: { named: "I'm an automated AI assistant for {name}", unnamed: "I'm an automated AI assistant" },
    fallback: "I'm sorry, I'm having technical trouble and can't continue right now. Please call back in a little while. Goodbye.",
    fillers: ['One moment.', 'Let me check.', 'Sure, one second.'],
    transferFailed: "I'm sorry, I couldn't reach anyone on the team just now.",
    cannotTakeCall: 'Sorry, we cannot take your call right now. Please try again later. Goodbye.',
    outbound: { named: 'Hello, this is {name} calling. Do you have a moment?', unnamed: 'Hello, do you have a moment?' },
  },
  es: {
    notice: {
      both: 'Para que lo sepa, {ai}, y esta llamada se graba.',
      ai: 'Para que lo sepa, {ai}.',
      recorded: 'Para que lo sepa, esta llamada se graba.',
    },
    ai: {
      named: 'soy un asistente automático de inteligencia artificial de {name}',
      unnamed: 'soy un asistente automático de inteligencia artificial',
    },
    fallback: 'Lo siento, tengo un problema técnico y no puedo continuar ahora mismo. Por favor, vuelva a llamar dentro de un rato. Adiós.',
    fillers: ['Un momento.', 'Déjeme comprobarlo.', 'Claro, un segundo.'],
    transferFailed: 'Lo siento, ahora mismo no he podido contactar con nadie del equipo.',
    cannotTakeCall: 'Lo sentimos, ahora mismo no podemos atender su llamada. Por favor, inténtelo más tarde. Adiós.',
    outbound: { named: 'Hola, le llamo de parte de {name}. ¿Tiene un momento?', unnamed: 'Hola, ¿tiene un momento?' },
  },
  fr: {
    notice: {
      both: 'Pour information, {ai}, et cet appel est enregistré.',
      ai: 'Pour information, {ai}.',
      recorded: 'Pour information, cet appel est enregistré.',
    },
    ai: {
      named: "je suis un assistant automatique d'intelligence artificielle de {name}",
      unnamed: "je suis un assistant automatique d'intelligence artificielle",
    },
    fallback:
      'Je suis désolé, je rencontre un problème technique et je ne peux pas continuer pour le moment. Merci de rappeler un peu plus tard. Au revoir.',
    fillers: ['Un instant.', 'Je vérifie.', 'Bien sûr, une seconde.'],
    transferFailed: "Je suis désolé, je n'ai pu joindre personne de l'équipe pour le moment.",
    cannotTakeCall: 'Désolé, nous ne pouvons pas prendre votre appel pour le moment. Merci de rappeler plus tard. Au revoir.',
    outbound: {
      named: 'Bonjour, je vous appelle de la part de {name}. Avez-vous un instant ?',
      unnamed: 'Bonjour, avez-vous un instant ?',
    },
  },
  de: {
    notice: {
      both: 'Zu Ihrer Information: {ai}, und dieses Gespräch wird aufgezeichnet.',
      ai: 'Zu Ihrer Information: {ai}.',
      recorded: 'Zu Ihrer Information: Dieses Gespräch wird aufgezeichnet.',
    },
    ai: { named: 'Ich bin ein automatischer KI-Assistent von {name}', unnamed: 'Ich bin ein automatischer KI-Assistent' },
    fallback:
      'Es tut mir leid, ich habe gerade ein technisches Problem und kann nicht weitermachen. Bitte rufen Sie in Kürze noch einmal an. Auf Wiederhören.',
    fillers: ['Einen Moment.', 'Ich sehe kurz nach.', 'Gern, eine Sekunde.'],
    transferFailed: 'Es tut mir leid, ich konnte gerade niemanden aus dem Team erreichen.',
    cannotTakeCall: 'Leider können wir Ihren Anruf gerade nicht annehmen. Bitte versuchen Sie es später noch einmal. Auf Wiederhören.',
    outbound: { named: 'Guten Tag, hier ist {name}. Haben Sie einen Moment Zeit?', unnamed: 'Guten Tag, haben Sie einen Moment Zeit?' },
  },
  it: {
    notice: {
      both: 'Per sua informazione, {ai}, e questa chiamata viene registrata.',
      ai: 'Per sua informazione, {ai}.',
      recorded: 'Per sua informazione, questa chiamata viene registrata.',
    },
    ai: {
      named: 'sono un assistente automatico di intelligenza artificiale di {name}',
      unnamed: 'sono un assistente automatico di intelligenza artificiale',
    },
    fallback: 'Mi dispiace, ho un problema tecnico e non posso continuare in questo momento. La prego di richiamare tra poco. Arrivederci.',
    fillers: ['Un momento.', 'Controllo subito.', 'Certo, un secondo.'],
    transferFailed: 'Mi dispiace, al momento non è stato possibile raggiungere nessuno del team.',
    cannotTakeCall: 'Ci dispiace, al momento non possiamo rispondere alla sua chiamata. La preghiamo di riprovare più tardi. Arrivederci.',
    outbound: { named: 'Buongiorno, la chiamo da parte di {name}. Ha un momento?', unnamed: 'Buongiorno, ha un momento?' },
  },
  nl: {
    notice: {
      both: 'Ter informatie: {ai}, en dit gesprek wordt opgenomen.',
      ai: 'Ter informatie: {ai}.',
      recorded: 'Ter informatie: dit gesprek wordt opgenomen.',
    },
    ai: { named: 'ik ben een geautomatiseerde AI-assistent van {name}', unnamed: 'ik ben een geautomatiseerde AI-assistent' },
    fallback: 'Het spijt me, ik heb een technisch probleem en kan nu niet verder. Belt u over een tijdje nog eens terug. Tot ziens.',
    fillers: ['Een moment.', 'Ik kijk even.', 'Natuurlijk, een seconde.'],
    transferFailed: 'Het spijt me, ik kon op dit moment niemand van het team bereiken.',
    cannotTakeCall: 'Sorry, we kunnen uw oproep nu niet aannemen. Probeert u het later nog eens. Tot ziens.',
    outbound: { named: 'Goedendag, u spreekt met {name}. Heeft u even een moment?', unnamed: 'Goedendag, heeft u even een moment?' },
  },
  ja: {
    notice: {
      both: '念のためお伝えしますと、{ai}で、この通話は録音されています。',
      ai: '念のためお伝えしますと、{ai}です。',
      recorded: '念のためお伝えしますと、この通話は録音されています。',
    },
    ai: { named: '私は{name}の自動AIアシスタント', unnamed: '私は自動AIアシスタント' },
    fallback:
      '申し訳ありません、技術的な問題が発生したため、現在お話を続けることができません。しばらくしてからおかけ直しください。失礼いたします。',
    fillers: ['少々お待ちください。', '確認いたします。', 'はい、すぐにお調べします。'],
    transferFailed: '申し訳ありません、ただいま担当者につなぐことができませんでした。',
    cannotTakeCall: '申し訳ありません、ただいまお電話をお受けできません。後ほどおかけ直しください。失礼いたします。',
    outbound: {
      named: 'もしもし、{name}です。今、少しお時間よろしいでしょうか？',
      unnamed: 'もしもし、今、少しお時間よろしいでしょうか？',
    },
  },
  pt: {
    notice: {
      both: 'Para sua informação, {ai}, e esta chamada é gravada.',
      ai: 'Para sua informação, {ai}.',
      recorded: 'Para sua informação, esta chamada é gravada.',
    },
    ai: {
      named: 'sou um assistente automático de inteligência artificial de {name}',
      unnamed: 'sou um assistente automático de inteligência artificial',
    },
    fallback: 'Desculpe, estou com um problema técnico e não consigo continuar agora. Por favor, ligue de novo daqui a pouco. Adeus.',
    fillers: ['Um momento.', 'Deixe-me verificar.', 'Claro, só um segundo.'],
    transferFailed: 'Desculpe, não foi possível falar com ninguém da equipe agora.',
    cannotTakeCall: 'Desculpe, não podemos atender a sua chamada agora. Por favor, tente mais tarde. Adeus.',
    outbound: { named: 'Olá, estou ligando em nome de {name}. Você tem um minuto?', unnamed: 'Olá, você tem um minuto?' },
  },
  hi: {
    notice: {
      both: 'आपकी जानकारी के लिए, {ai}, और यह कॉल रिकॉर्ड की जा रही है।',
      ai: 'आपकी जानकारी के लिए, {ai}।',
      recorded: 'आपकी जानकारी के लिए, यह कॉल रिकॉर्ड की जा रही है।',
    },
    ai: { named: 'मैं {name} का एक स्वचालित AI सहायक हूँ', unnamed: 'मैं एक स्वचालित AI सहायक हूँ' },
    fallback: 'माफ़ कीजिए, तकनीकी समस्या के कारण अभी बातचीत जारी रखना संभव नहीं है। कृपया थोड़ी देर बाद फिर से कॉल करें। धन्यवाद।',
    fillers: ['एक क्षण।', 'ज़रा देखने दीजिए।', 'जी, बस एक सेकंड।'],
    transferFailed: 'माफ़ कीजिए, अभी टीम में किसी से संपर्क नहीं हो सका।',
    cannotTakeCall: 'माफ़ कीजिए, हम अभी आपकी कॉल नहीं ले सकते। कृपया बाद में फिर से कोशिश करें। धन्यवाद।',
    outbound: { named: 'नमस्ते, यह कॉल {name} की ओर से है। क्या आपके पास एक मिनट है?', unnamed: 'नमस्ते, क्या आपके पास एक मिनट है?' },
  },
  ru: {
    notice: {
      both: 'К вашему сведению: {ai}, и этот звонок записывается.',
      ai: 'К вашему сведению: {ai}.',
      recorded: 'К вашему сведению: этот звонок записывается.',
    },
    ai: { named: 'я автоматический ИИ-ассистент компании {name}', unnamed: 'я автоматический ИИ-ассистент' },
    fallback: 'Извините, у меня техническая неполадка, и я не могу продолжить разговор. Пожалуйста, перезвоните чуть позже. До свидания.',
    fillers: ['Одну минуту.', 'Сейчас проверю.', 'Конечно, секунду.'],
    transferFailed: 'Извините, сейчас не удалось связаться ни с кем из команды.',
    cannotTakeCall: 'Извините, сейчас мы не можем принять ваш звонок. Пожалуйста, перезвоните позже. До свидания.',
    outbound: { named: 'Здравствуйте, это {name}. У вас есть минутка?', unnamed: 'Здравствуйте, у вас есть минутка?' },
  },
};

/** The fixed lines of one language, with the notice assembled from what the call needs. */
export interface FixedLines {
  /** AI disclosure and/or recording notice; '' when neither applies. */
  notice(options: { ai: boolean; recorded: boolean; businessName: string }): string;
  fallback: string;
  fillers: readonly string[];
  transferFailed: string;
  cannotTakeCall: string;
  /** The standard outbound greeting, naming the business when it has a name. */
  outboundGreeting(businessName: string): string;
}

/**
 * The fixed lines in `language` (a supported code; anything else gets English).
 *
 * @example fixedLines('es').notice({ ai: false, recorded: true, businessName: '' }) // 'Para que lo sepa, esta llamada se graba.'
 */
export function fixedLines(language: string): FixedLines {
  const table = Object.hasOwn(LINES, language) ? LINES[language as LanguageCode] : LINES.en;
  return {
    notice: ({ ai, recorded, businessName }) => {
      const self = businessName !== '' ? table.ai.named.replace('{name}', businessName) : table.ai.unnamed;
      if (ai && recorded) return table.notice.both.replace('{ai}', self);
      if (ai) return table.notice.ai.replace('{ai}', self);
      return recorded ? table.notice.recorded : '';
    },
    fallback: table.fallback,
    fillers: table.fillers,
    transferFailed: table.transferFailed,
    cannotTakeCall: table.cannotTakeCall,
    outboundGreeting: (businessName) =>
      businessName === '' ? table.outbound.unnamed : table.outbound.named.replace('{name}', () => businessName),
  };
}

/** The languages the table covers (a test checks they are exactly the supported ones). */
export const FIXED_LINE_LANGUAGES = Object.keys(LINES);
