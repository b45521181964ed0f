/**
 * Reads a Markdown walkthrough of curl commands (docs/api-tour.md) as steps a test can replay
 * with `fetch`, so the document cannot drift from the API it shows. No shell and no curl run:
 * the commands are parsed, which also keeps the document to a small, portable subset of shell.
 *
 * The format, inside ```sh blocks:
 * - `curl …` is a request; `NAME=$(curl … | id)` also keeps the answer's `id` in `$NAME`;
 *   `NAME=$(curl -s -o /dev/null -w '%header{etag}' …)` keeps a response header.
 * - `# → {…}` (optionally `# → 409 {…}`) after a request is the answer's shape: every field shown
 *   must be there; strings must match (`…` stands for any text), numbers are any number, `true`,
 *   `false` and `null` must match, `…` elsewhere stands for the fields and items left out.
 *   Lines after it that start with `#` and two spaces continue it.
 * - `export A=x B=y` sets variables; the test supplies its own value for the ones it knows.
 * - `# tour: call` marks the rest of a block as needing a whole call to finish: those requests
 *   are only checked to be well-formed (the API does not refuse them as malformed). `# tour: skip` as a block's first line leaves the block out.
 * - Any other line (`npm run dev`, `node …`) is for a person to run, and is not replayed.
 */

/** One request of the walkthrough. */
export interface TourStep {
  /** 1-based line of the command in the document. */
  line: number;
  method: string;
  /** The URL and header and body words before variables are filled in (`$API/tools/$TOOL`). */
  url: string;
  headers: [string, string][];
  body?: string;
  /** `id`: keep the JSON answer's `id`; `header`: keep a response header. */
  capture?: { name: string; from: 'id' } | { name: string; from: 'header'; header: string };
  expect?: { status?: number; body?: unknown; text: string };
  /** After `# tour: call`: the status is checked, not the shape. */
  statusOnly: boolean;
}

/** The walkthrough read as steps, and the variables its `export` lines set. */
export interface Tour {
  steps: TourStep[];
  exports: Record<string, string>;
}

const VAR = /\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g;

/** Fills `$NAME` and `${NAME}` in; an unknown variable is an error (the document used one before setting it). */
export function expand(text: string, vars: Record<string, string>): string {
  return text.replace(VAR, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    const value = vars[name];
    if (value === undefined) throw new Error(`$${name} is used before it is set`);
    return value;
  });
}

/**
 * Splits one command into words as a POSIX shell would for the subset used: single quotes,
 * double quotes (variables stay as `$NAME`, to fill in later), backslash escapes, and a `#` comment.
 * Pipes, redirections and command substitutions are refused.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (ch === '#' && word === null) {
      break;
    } else if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${command}`);
      word = (word ?? '') + command.slice(i + 1, end).replace(/\$/g, '\\$');
      i = end;
    } else if (ch === '"') {
      let text = '';
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && '"\\$`'.includes(command[i + 1] ?? '')) text += command[++i] === '$' ? '\\$' : command[i];
        else text += command[i];
      }
      if (i >= command.length) throw new Error(`unclosed " in: ${command}`);
      word = (word ?? '') + text;
    } else if (ch === '\\') {
      word = (word ?? '') + (command[++i] ?? '');
    } else if ('|;&<>`'.includes(ch) || (ch === '$' && command[i + 1] === '(')) {
      throw new Error(`unsupported shell syntax "${ch}" in: ${command}`);
    } else {
      word = (word ?? '') + ch;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Stands in for a `$` that quoting kept literal while variables are filled in (a character no document holds). */
const LITERAL_DOLLAR = '\uE000';

/** `$` kept literally by quoting is marked `\$`; this fills variables in and then drops the marks. */
export function fill(word: string, vars: Record<string, string>): string {
  return expand(word.replaceAll('\\$', LITERAL_DOLLAR), vars).replaceAll(LITERAL_DOLLAR, '$');
}

function parseCurl(words: string[], line: number): Omit<TourStep, 'capture' | 'expect' | 'statusOnly'> {
  const step: Omit<TourStep, 'capture' | 'expect' | 'statusOnly'> = { line, method: '', url: '', headers: [] };
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const next = () => {
      const value = words[++i];
      if (value === undefined) throw new Error(`line ${line}: ${word} needs a value`);
      return value;
    };
    if (word === '-s' || word === '-sS') continue;
    else if (word === '-X') step.method = next();
    else if (word === '-H') {
      const header = next();
      const colon = header.indexOf(':');
      step.headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
    } else if (word === '-d' || word === '--data-binary') step.body = next();
    else if (word === '-o' || word === '-w') next();
    else if (!word.startsWith('-') && !step.url) step.url = word;
    else throw new Error(`line ${line}: curl option ${word} is not in the tour's subset`);
  }
  if (!step.url) throw new Error(`line ${line}: curl without a URL`);
  step.method ||= step.body === undefined ? 'GET' : 'POST';
  return step;
}

/** Removes `…` (and `...`) outside strings and the commas it leaves dangling, so the shape parses as JSON. */
function shapeToJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '…') continue;
    else if (text.startsWith('...', i)) i += 2;
    else out += ch;
  }
  return out
    .replace(/,(\s*,)+/g, ',')
    .replace(/,\s*([}\]])/g, '$1')
    .replace(/([{[])\s*,/g, '$1');
}

/** The first balanced `{…}` or `[…]` of a text (what follows it is a note for the reader). */
function balancedPrefix(text: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if ((ch === '}' || ch === ']') && --depth === 0) return text.slice(0, i + 1);
  }
  throw new Error(`unbalanced shape: ${text}`);
}

function parseExpectation(text: string, line: number): NonNullable<TourStep['expect']> {
  const match = /^(\d{3})?\s*(.*)$/s.exec(text.trim())!;
  const status = match[1] === undefined ? undefined : Number(match[1]);
  const rest = match[2]!;
  if (!/^[{[]/.test(rest)) return { ...(status !== undefined && { status }), text };
  try {
    return { ...(status !== undefined && { status }), body: JSON.parse(shapeToJson(balancedPrefix(rest))), text };
  } catch (error) {
    throw new Error(`line ${line}: the shape after → is not JSON once … is removed: ${rest}`, { cause: error });
  }
}

/** Whether a command line ends inside a quoted string (a body spread over several lines). */
function openQuote(text: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === null && ch === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return false;
    if (quote === null && (ch === "'" || ch === '"')) quote = ch;
    else if (quote === '"' && ch === '\\') i++;
    else if (ch === quote) quote = null;
    else if (quote === null && ch === '\\') i++;
  }
  return quote !== null;
}

const CAPTURE_ID = /^([A-Z_][A-Z0-9_]*)=\$\((curl .*) \| id\)$/s;
const CAPTURE_HEADER = /^([A-Z_][A-Z0-9_]*)=\$\((curl .*)\)$/s;

/** Reads every ```sh block of a document into requests and the variables its `export` lines set. */
export function parseTour(markdown: string): Tour {
  const lines = markdown.split('\n');
  const steps: TourStep[] = [];
  const exports: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```sh') continue;
    const block: { text: string; line: number }[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) {
      const start = i;
      let text = lines[i]!;
      while ((text.endsWith('\\') || openQuote(text)) && i + 1 < lines.length)
        text = text.endsWith('\\') ? `${text.slice(0, -1)}\n${lines[++i]!}` : `${text}\n${lines[++i]!}`;
      block.push({ text, line: start + 1 });
    }
    if (block[0]?.text.startsWith('# tour: skip')) continue;
    let statusOnly = false;
    let last: TourStep | undefined;
    let expecting = false;
    for (const { text, line } of block) {
      if (text.startsWith('# tour: call')) statusOnly = true;
      if (text.startsWith('# →') && last) {
        last.expect = { text: text.slice(3).trim() } as TourStep['expect'];
        expecting = true;
        continue;
      }
      if (expecting && /^#\s{2,}/.test(text) && last?.expect) {
        last.expect.text += ` ${text.slice(1).trim()}`;
        continue;
      }
      if (last?.expect && expecting) last.expect = parseExpectation(last.expect.text, last.line);
      expecting = false;
      if (text.startsWith('#') || text.trim() === '') continue;
      if (text.startsWith('export ')) {
        for (const word of shellWords(text).slice(1)) {
          const eq = word.indexOf('=');
          exports[word.slice(0, eq)] = word.slice(eq + 1);
        }
        continue;
      }
      const byId = CAPTURE_ID.exec(text);
      const byHeader = byId ? null : CAPTURE_HEADER.exec(text);
      const command = byId?.[2] ?? byHeader?.[2] ?? text;
      if (!command.startsWith('curl ')) {
        last = undefined; // a command for a person (npm run …): what follows shows its output, not a request's
        continue;
      }
      const words = shellWords(command);
      const step: TourStep = { ...parseCurl(words, line), statusOnly };
      if (byId) step.capture = { name: byId[1]!, from: 'id' };
      if (byHeader) {
        const format = words[words.indexOf('-w') + 1] ?? '';
        const header = /^%header\{([\w-]+)\}$/.exec(format)?.[1];
        if (!header) throw new Error(`line ${line}: a capture without | id must be -w '%header{name}'`);
        step.capture = { name: byHeader[1]!, from: 'header', header };
      }
      steps.push(step);
      last = step;
    }
    if (last?.expect && expecting) last.expect = parseExpectation(last.expect.text, last.line);
  }
  return { steps, exports };
}
