import type { Language } from '@paylink/shared';
import type { Config } from '../../config.js';
import type { Queryable } from '../../db/client.js';
import { getOrCreateSecret } from '../../lib/secrets.js';
import { personalLinkUrl, type LinkRow } from '../links/index.js';
import { loadPracticeInfo, type PracticeInfo } from '../../messages/index.js';
import { unsubscribeToken } from '../../messages/opt-outs.js';
import { messageTimeZone } from '../app-config/index.js';

/** Shared helpers of link sends and reminders: URLs, the patient's zone, dates in the link's language. */
export function patientUrl(config: Config, link: Pick<LinkRow, 'id' | 'language'>): string {
  const url = personalLinkUrl(config.publicUrl, link.id);
  return link.language === 'es' ? `${url}&lng=es` : url;
}

/** The patient's zone for dates and quiet hours (decision 0217: address, area code, then the practice's zone). */
export async function linkTimeZone(
  q: Queryable,
  config: Config,
  link: Pick<LinkRow, 'state' | 'zip_code' | 'phone'>,
): Promise<string> {
  return (await messageTimeZone(q, config, link)).timeZone;
}

export function formatDay(at: Date, lang: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-US' : 'en-US', { month: 'long', day: 'numeric', timeZone }).format(
    at,
  );
}

export async function practiceFor(q: Queryable, config: Config): Promise<PracticeInfo> {
  return loadPracticeInfo(q, {
    name: config.PRACTICE_NAME,
    senderName: config.senderName,
    supportPhone: config.PRACTICE_PHONE,
    supportEmail: config.PRACTICE_EMAIL,
  });
}

/** RFC 8058 one-click unsubscribe: the URL (in the footer too) and the two headers. */
export async function unsubscribeFor(
  q: Queryable,
  config: Config,
  email: string,
): Promise<{ url: string; headers: Record<string, string> }> {
  const secret = await getOrCreateSecret(q, 'messaging-unsubscribe');
  const url = `${config.publicUrl}/unsubscribe?t=${unsubscribeToken(secret, email)}`;
  return { url, headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
