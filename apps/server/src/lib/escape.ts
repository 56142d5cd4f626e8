const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const XML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or attribute value inside HTML. Prefer the `markup` template below, which calls it for every value. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML[c]!);

/** Text or attribute value inside XML (gateway requests and the sandbox gateway's answers, Twilio's TwiML). */
export const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => XML[c]!);

/** HTML that is already safe: the result of `markup`, or a trusted fragment wrapped with `raw()`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a `markup` template accepts: text (escaped), safe HTML (as is), lists of either; null/undefined/false = nothing. */
export type HtmlValue = string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

const render = (v: HtmlValue): string => {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
};

/**
 * The one way the server writes HTML (signing pages, e-mails, the sandbox outbox and gateway pages, error pages):
 * every interpolated value is escaped unless it is itself `markup` or explicitly `raw()`, so forgetting to escape is not
 * possible. Arrays are concatenated; use `joinHtml` for a separator. Not named `html`: Prettier would reformat the
 * markup inside an `html` tag and change the bytes we send.
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** A fragment we wrote ourselves and trust as HTML (a script body already made safe, a constant). */
export const raw = (trusted: string): SafeHtml => new SafeHtml(trusted);

/** Items (each escaped unless safe) with a separator between them, e.g. lines joined with `<br>`. */
export const joinHtml = (items: readonly HtmlValue[], separator: SafeHtml | string): SafeHtml =>
  new SafeHtml(items.map(render).join(render(separator)));
