import type { Language } from '@paylink/shared';
import { renderEmail } from './email-layout.js';
import type { PracticeInfo } from './practice-info.js';

/** One e-mail's words in one language. */
export interface EmailWords {
  subject: string;
  title: string;
  paragraphs: string[];
  /** The button's label; its URL is the message's own (`url`). */
  action?: string;
}

/**
 * A message's texts: one function per language from the message's facts to its words, English and Spanish side by
 * side, so a message is a table and every e-mail is laid out by the same call.
 */
export type EmailTexts<F> = Record<Language, (facts: F) => EmailWords>;

export function composeEmail<F>(
  texts: EmailTexts<F>,
  facts: F,
  o: {
    lang: Language;
    practice: PracticeInfo;
    url?: string;
    footer?: string[];
    unsubscribe?: { label: string; url: string };
  },
): { subject: string; text: string; html: string } {
  const words = (texts[o.lang] ?? texts.en)(facts);
  const body = renderEmail({
    lang: o.lang,
    practice: o.practice,
    title: words.title,
    paragraphs: words.paragraphs,
    ...(words.action && o.url ? { action: { label: words.action, url: o.url } } : {}),
    ...(o.footer ? { footer: o.footer } : {}),
    ...(o.unsubscribe ? { unsubscribe: o.unsubscribe } : {}),
  });
  return { subject: words.subject, ...body };
}

/** The practice's name in an SMS: at most 40 characters, so a long name keeps the text in one segment (no '…': it is not GSM-7). */
export function smsPracticeName(name: string): string {
  return name.length <= 40 ? name : name.slice(0, 40).trimEnd();
}
