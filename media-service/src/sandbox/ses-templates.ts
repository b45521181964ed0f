import * as v from 'valibot';

/**
 * Email templates of the SES stand-in (SES v2 `CreateEmailTemplate`, `GetEmailTemplate`, and
 * SendEmail's `Content.Template`): kept by name, rendered with the request's `TemplateData` by
 * replacing each `{{name}}` with its value. A template name the account does not have is SES's
 * 404 `NotFoundException`, on a read and on a send alike.
 */

/** A template's parts, as SES v2 names them. */
export interface TemplateContent {
  Subject?: string;
  Text?: string;
  Html?: string;
}

/** SES's error for a request about a template: code, HTTP status and message. */
export interface TemplateFailure {
  type: 'NotFoundException' | 'AlreadyExistsException' | 'BadRequestException' | 'LimitExceededException';
  status: number;
  message: string;
}

const ContentSchema = v.object({ Subject: v.optional(v.string()), Text: v.optional(v.string()), Html: v.optional(v.string()) });
const CreateSchema = v.object({ TemplateName: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)), TemplateContent: ContentSchema });

/** SES's default quota of templates per account and region. */
const MAX_TEMPLATES = 10_000;

const notFound = (name: string): TemplateFailure => ({
  type: 'NotFoundException',
  status: 404,
  message: `Template ${name.slice(0, 64)} does not exist.`,
});

/** The templates of one stand-in. */
export class SesTemplates {
  readonly #templates = new Map<string, TemplateContent>();

  /** `POST /v2/email/templates`: keeps a new template, or the error SES answers. */
  create(text: string): TemplateFailure | undefined {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { type: 'BadRequestException', status: 400, message: 'The request body is not valid JSON.' };
    }
    const parsed = v.safeParse(CreateSchema, json);
    if (!parsed.success) return { type: 'BadRequestException', status: 400, message: `Invalid template: ${parsed.issues[0].message}` };
    const { TemplateName: name, TemplateContent: content } = parsed.output;
    if (this.#templates.has(name)) return { type: 'AlreadyExistsException', status: 400, message: `Template ${name} already exists.` };
    if (this.#templates.size >= MAX_TEMPLATES)
      return { type: 'LimitExceededException', status: 400, message: 'Maximum number of templates reached.' };
    this.#templates.set(name, content);
    return undefined;
  }

  /** `GET /v2/email/templates/{name}`: the template as SES returns it, or its 404. */
  get(name: string): { TemplateName: string; TemplateContent: TemplateContent } | TemplateFailure {
    const content = this.#templates.get(name);
    return content ? { TemplateName: name, TemplateContent: content } : notFound(name);
  }

  /**
   * SendEmail's `Content.Template` → the subject and bodies to send: a named template rendered
   * with `TemplateData` (a JSON object string), or inline `TemplateContent`; a missing name is 404.
   */
  render(template: {
    TemplateName?: string | undefined;
    TemplateContent?: TemplateContent | undefined;
    TemplateData?: string | undefined;
  }): { subject: string; text?: string; html?: string } | TemplateFailure {
    const content = template.TemplateName !== undefined ? this.#templates.get(template.TemplateName) : template.TemplateContent;
    if (!content)
      return template.TemplateName !== undefined
        ? notFound(template.TemplateName)
        : badTemplate('Template needs TemplateName or TemplateContent.');
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(template.TemplateData ?? '{}') as Record<string, unknown>;
    } catch {
      return badTemplate('TemplateData must be a JSON object.');
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return badTemplate('TemplateData must be a JSON object.');
    const fill = (part: string | undefined) =>
      part?.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, key: string) => (Object.hasOwn(data, key) ? String(data[key]) : ''));
    return {
      subject: fill(content.Subject) ?? '',
      ...(content.Text !== undefined && { text: fill(content.Text)! }),
      ...(content.Html !== undefined && { html: fill(content.Html)! }),
    };
  }
}

/** Whether an answer of {@link SesTemplates} is an error. */
export function isTemplateFailure(answer: object): answer is TemplateFailure {
  return 'type' in answer && 'status' in answer;
}

function badTemplate(message: string): TemplateFailure {
  return { type: 'BadRequestException', status: 400, message };
}
