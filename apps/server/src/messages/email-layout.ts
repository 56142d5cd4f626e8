import type { Language } from '@paylink/shared';
import { joinHtml, markup } from '../lib/escape.js';
import type { PracticeInfo } from './practice-info.js';

export interface EmailContent {
  lang: Language;
  practice: Pick<PracticeInfo, 'name'> & Partial<PracticeInfo>;
  /** Heading, also used as the HTML <title>. */
  title: string;
  /** Plain-text paragraphs (escaped here; no markup). */
  paragraphs: string[];
  /** One call-to-action button; its URL is repeated as text for clients that block buttons. */
  action?: { label: string; url: string };
  /** Extra footer lines (why the patient gets it, how to check it is genuine) and an unsubscribe link. */
  footer?: string[];
  unsubscribe?: { label: string; url: string };
}

const FOOTER = {
  en: {
    why: (p: string) => `You are receiving this e-mail from ${p} about your personal payment link.`,
    contact: 'Questions? Contact us:',
    noReply: 'This is an automated message; replies to this address are not read.',
    fallback: 'If the button does not work, copy this address into your browser:',
  },
  es: {
    why: (p: string) => `Recibe este correo de ${p} en relación con su enlace de pago personal.`,
    contact: '¿Preguntas? Contáctenos:',
    noReply: 'Este es un mensaje automático; las respuestas a esta dirección no se leen.',
    fallback: 'Si el botón no funciona, copie esta dirección en su navegador:',
  },
} as const;

/** A branded e-mail in one language: HTML (inline styles, table layout that mail clients render) and plain text. */
export function renderEmail(c: EmailContent): { html: string; text: string } {
  const f = FOOTER[c.lang] ?? FOOTER.en;
  const p = c.practice;
  const contact = [p.supportPhone, p.supportEmail].filter((x): x is string => !!x);

  const text = [
    p.name,
    '',
    c.title,
    '',
    ...c.paragraphs.flatMap((para) => [para, '']),
    ...(c.action ? [`${c.action.label}: ${c.action.url}`, ''] : []),
    '--',
    f.why(p.name),
    ...(c.footer ?? []),
    ...(contact.length ? [`${f.contact} ${contact.join(' · ')}`] : []),
    f.noReply,
    ...(c.unsubscribe ? [`${c.unsubscribe.label}: ${c.unsubscribe.url}`] : []),
    '',
  ].join('\n');

  const logo = p.logoUrl
    ? markup`<img src="${p.logoUrl}" alt="${p.name}" height="40" style="display:block;height:40px;border:0">`
    : markup`<span style="font-size:20px;font-weight:700;color:#0b3d5c">${p.name}</span>`;
  const button = c.action
    ? markup`<table role="presentation" cellpadding="0" cellspacing="0" style="margin:24px 0"><tr><td style="border-radius:6px;background:#0b5ed7">
<a href="${c.action.url}" style="display:inline-block;padding:12px 24px;color:#ffffff;font-weight:600;text-decoration:none;font-size:16px">${c.action.label}</a>
</td></tr></table>
<p style="margin:0 0 16px;font-size:13px;color:#555">${f.fallback}<br><a href="${c.action.url}" style="color:#0b5ed7;word-break:break-all">${c.action.url}</a></p>`
    : '';
  const html = markup`<!doctype html>
<html lang="${c.lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${c.title}</title></head>
<body style="margin:0;padding:0;background:#f3f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2329">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f5f7"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:24px 32px;border-bottom:1px solid #e5e8eb">${logo}</td></tr>
<tr><td style="padding:24px 32px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3">${c.title}</h1>
${joinHtml(
  c.paragraphs.map((para) => markup`<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${para}</p>`),
  '\n',
)}
${button}
</td></tr>
<tr><td style="padding:16px 32px;border-top:1px solid #e5e8eb;font-size:12px;line-height:1.5;color:#666">
<p style="margin:0 0 8px">${f.why(p.name)}</p>
${contact.length ? markup`<p style="margin:0 0 8px">${f.contact} ${joinHtml(contact, ' · ')}</p>` : ''}
${joinHtml(
  (c.footer ?? []).map((line) => markup`<p style="margin:0 0 8px">${line}</p>`),
  '\n',
)}
<p style="margin:0">${f.noReply}</p>
${c.unsubscribe ? markup`<p style="margin:8px 0 0"><a href="${c.unsubscribe.url}" style="color:#666">${c.unsubscribe.label}</a></p>` : ''}
</td></tr>
</table>
</td></tr></table>
</body>
</html>
`.toString();
  return { html, text };
}
