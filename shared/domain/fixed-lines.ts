import type { LanguageCode } from './languages';

/**
 * Every line the service itself says on a call (not the assistant's configured text, nor the
 * model's words), in every supported language: one table, so a new line or language is one
 * entry and a unit test checks that each language has every line. `{ai}` and `{name}` are filled
 * by {@link fixedLines}.
 */
interface LineTable {
  /**
   * The notice, by what it covers; `{ai}` is `ai.named` or `ai.unnamed`. Short on purpose: with the
   * reference business name it takes at most 5 s to say, and the greeting with it at most 7 s
   * (docs/decisions.md "How long the notices take to say").
   */
  notice: { both: string; ai: string; recorded: string };
  ai: { named: string; unnamed: string };
  /**
   * Said before `voicemail_message` when `ai_disclosure` is on: who is calling, and that it is an AI
   * (docs/decisions.md "What a voicemail owes the law").
   */
  voicemail: { named: string; unnamed: string };
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
      both: '{ai}. This call is recorded.',
      ai: '{ai}.',
      recorded: 'This call is recorded.',
    },
    ai: { named: "I'm an AI assistant for {name}", unnamed: "I'm an AI assistant" },
    voicemail: { named: 'This is an AI assistant calling for {name}.', unnamed: 'This is an AI assistant calling.' },
    fallback: "I'm sorry, I'm having technical trouble and can't continue right now. Please call back in a little while. Goodbye.",
    fillers: ['One moment.', 'Let me check.', 'Sure, one second.'],
    transferFailed: "I'm sorry, I couldn't reach anyone on the team just now.",
    cannotTakeCall: 'Sorry, we cannot take your call right now. Please try again later. Goodbye.',
    outbound: { named: 'Hello, this is {name} calling. Do you have a moment?', unnamed: 'Hello, do you have a moment?' },
  },
  es: {
    notice: {
      both: '{ai}. Esta llamada se graba.',
      ai: '{ai}.',
      recorded: 'Esta llamada se graba.',
    },
    ai: { named: 'Soy un asistente de IA de {name}', unnamed: 'Soy un asistente de IA' },
    voicemail: { named: 'Le llama un asistente de IA de {name}.', unnamed: 'Le llama un asistente de IA.' },
    fallback: 'Lo siento, tengo un problema técnico y no puedo continuar ahora mismo. Por favor, vuelva a llamar dentro de un rato. Adiós.',
    fillers: ['Un momento.', 'Déjeme comprobarlo.', 'Claro, un segundo.'],
    transferFailed: 'Lo siento, ahora mismo no he podido contactar con nadie del equipo.',
    cannotTakeCall: 'Lo sentimos, ahora mismo no podemos atender su llamada. Por favor, inténtelo más tarde. Adiós.',
    outbound: { named: 'Hola, le llamo de parte de {name}. ¿Tiene un momento?', unnamed: 'Hola, ¿tiene un momento?' },
  },
  fr: {
    notice: {
      both: '{ai}. Cet appel est enregistré.',
      ai: '{ai}.',
      recorded: 'Cet appel est enregistré.',
    },
    ai: { named: "Je suis l'assistant IA de {name}", unnamed: 'Je suis un assistant IA' },
    voicemail: { named: "Ici l'assistant IA de {name}.", unnamed: 'Ici un assistant IA.' },
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
      both: '{ai}. Der Anruf wird aufgezeichnet.',
      ai: '{ai}.',
      recorded: 'Der Anruf wird aufgezeichnet.',
    },
    ai: { named: 'Ich bin der KI-Assistent von {name}', unnamed: 'Ich bin ein KI-Assistent' },
    voicemail: { named: 'Hier spricht der KI-Assistent von {name}.', unnamed: 'Hier spricht ein KI-Assistent.' },
    fallback:
      'Es tut mir leid, ich habe gerade ein technisches Problem und kann nicht weitermachen. Bitte rufen Sie in Kürze noch einmal an. Auf Wiederhören.',
    fillers: ['Einen Moment.', 'Ich sehe kurz nach.', 'Gern, eine Sekunde.'],
    transferFailed: 'Es tut mir leid, ich konnte gerade niemanden aus dem Team erreichen.',
    cannotTakeCall: 'Leider können wir Ihren Anruf gerade nicht annehmen. Bitte versuchen Sie es später noch einmal. Auf Wiederhören.',
    outbound: { named: 'Guten Tag, hier ist {name}. Haben Sie einen Moment Zeit?', unnamed: 'Guten Tag, haben Sie einen Moment Zeit?' },
  },
  it: {
    notice: {
      both: '{ai}. La chiamata è registrata.',
      ai: '{ai}.',
      recorded: 'La chiamata è registrata.',
    },
    ai: { named: "Sono l'assistente IA di {name}", unnamed: 'Sono un assistente IA' },
    voicemail: { named: "Qui parla l'assistente IA di {name}.", unnamed: 'Qui parla un assistente IA.' },
    fallback: 'Mi dispiace, ho un problema tecnico e non posso continuare in questo momento. La prego di richiamare tra poco. Arrivederci.',
    fillers: ['Un momento.', 'Controllo subito.', 'Certo, un secondo.'],
    transferFailed: 'Mi dispiace, al momento non è stato possibile raggiungere nessuno del team.',
    cannotTakeCall: 'Ci dispiace, al momento non possiamo rispondere alla sua chiamata. La preghiamo di riprovare più tardi. Arrivederci.',
    outbound: { named: 'Buongiorno, la chiamo da parte di {name}. Ha un momento?', unnamed: 'Buongiorno, ha un momento?' },
  },
  nl: {
    notice: {
      both: '{ai}. Dit gesprek wordt opgenomen.',
      ai: '{ai}.',
      recorded: 'Dit gesprek wordt opgenomen.',
    },
    ai: { named: 'Ik ben de AI-assistent van {name}', unnamed: 'Ik ben een AI-assistent' },
    voicemail: { named: 'U wordt gebeld door de AI-assistent van {name}.', unnamed: 'U wordt gebeld door een AI-assistent.' },
    fallback: 'Het spijt me, ik heb een technisch probleem en kan nu niet verder. Belt u over een tijdje nog eens terug. Tot ziens.',
    fillers: ['Een moment.', 'Ik kijk even.', 'Natuurlijk, een seconde.'],
    transferFailed: 'Het spijt me, ik kon op dit moment niemand van het team bereiken.',
    cannotTakeCall: 'Sorry, we kunnen uw oproep nu niet aannemen. Probeert u het later nog eens. Tot ziens.',
    outbound: { named: 'Goedendag, u spreekt met {name}. Heeft u even een moment?', unnamed: 'Goedendag, heeft u even een moment?' },
  },
  ja: {
    notice: {
      both: '{ai}。録音しています。',
      ai: '{ai}。',
      recorded: '通話を録音しています。',
    },
    ai: { named: '{name}のAI自動応答です', unnamed: 'AI自動応答です' },
    voicemail: { named: '{name}のAIアシスタントからのお電話です。', unnamed: 'AIアシスタントからのお電話です。' },
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
      both: '{ai}. Esta chamada é gravada.',
      ai: '{ai}.',
      recorded: 'Esta chamada é gravada.',
    },
    ai: { named: 'Sou o assistente de IA de {name}', unnamed: 'Sou um assistente de IA' },
    voicemail: { named: 'Aqui fala o assistente de IA de {name}.', unnamed: 'Aqui fala um assistente de IA.' },
    fallback: 'Desculpe, estou com um problema técnico e não consigo continuar agora. Por favor, ligue de novo daqui a pouco. Adeus.',
    fillers: ['Um momento.', 'Deixe-me verificar.', 'Claro, só um segundo.'],
    transferFailed: 'Desculpe, não foi possível falar com ninguém da equipe agora.',
    cannotTakeCall: 'Desculpe, não podemos atender a sua chamada agora. Por favor, tente mais tarde. Adeus.',
    outbound: { named: 'Olá, estou ligando em nome de {name}. Você tem um minuto?', unnamed: 'Olá, você tem um minuto?' },
  },
  hi: {
    notice: {
      both: '{ai}। यह कॉल रिकॉर्ड हो रही है।',
      ai: '{ai}।',
      recorded: 'यह कॉल रिकॉर्ड हो रही है।',
    },
    ai: { named: 'मैं {name} का AI सहायक हूँ', unnamed: 'मैं एक AI सहायक हूँ' },
    voicemail: { named: 'यह {name} का AI सहायक बोल रहा है।', unnamed: 'यह एक AI सहायक बोल रहा है।' },
    fallback: 'माफ़ कीजिए, तकनीकी समस्या के कारण अभी बातचीत जारी रखना संभव नहीं है। कृपया थोड़ी देर बाद फिर से कॉल करें। धन्यवाद।',
    fillers: ['एक क्षण।', 'ज़रा देखने दीजिए।', 'जी, बस एक सेकंड।'],
    transferFailed: 'माफ़ कीजिए, अभी टीम में किसी से संपर्क नहीं हो सका।',
    cannotTakeCall: 'माफ़ कीजिए, हम अभी आपकी कॉल नहीं ले सकते। कृपया बाद में फिर से कोशिश करें। धन्यवाद।',
    outbound: { named: 'नमस्ते, यह कॉल {name} की ओर से है। क्या आपके पास एक मिनट है?', unnamed: 'नमस्ते, क्या आपके पास एक मिनट है?' },
  },
  ru: {
    notice: {
      both: '{ai}. Этот звонок записывается.',
      ai: '{ai}.',
      recorded: 'Этот звонок записывается.',
    },
    ai: { named: 'Я ИИ-ассистент компании {name}', unnamed: 'Я ИИ-ассистент' },
    voicemail: { named: 'Вам звонит ИИ-ассистент компании {name}.', unnamed: 'Вам звонит ИИ-ассистент.' },
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
  /** The line that opens a voicemail with the AI disclosure on. */
  voicemailIntro(businessName: string): string;
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
 * @example fixedLines('es').notice({ ai: false, recorded: true, businessName: '' }) // 'Esta llamada se graba.'
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
    voicemailIntro: (businessName) =>
      businessName !== '' ? table.voicemail.named.replace('{name}', businessName) : table.voicemail.unnamed,
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
