import { cardBrandName, formatCard, formatPhoneNumber } from '@paylink/shared';
import i18n from '../i18n';

const locale = () => (i18n.language === 'es' ? 'es-US' : 'en-US');

/** Amounts arrive in US dollars (numbers with up to two decimals). */
export function formatMoney(dollars: number | null | undefined): string {
  if (dollars === null || dollars === undefined) return '—';
  return new Intl.NumberFormat(locale(), { style: 'currency', currency: 'USD' }).format(dollars);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium' }).format(d);
}

/** A calendar day (YYYY-MM-DD, the practice's date) as written, whatever the browser's time zone. */
export function formatDay(day: string | null | undefined): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return '—';
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** "5 min ago", "3 h ago", "2 days ago" (Intl.RelativeTimeFormat in the UI language). */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return '—';
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 60) return rtf.format(s, 'second');
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}

/** Seconds → "2 h 5 min" / "3 d 4 h" / "45 s". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min`;
  return `${s} s`;
}

/** A phone number as people read it, in the UI language: the one rule in packages/shared (decision 0219). */
export function formatPhone(phone: string | null | undefined): string {
  return formatPhoneNumber(phone, i18n.language === 'es' ? 'es' : 'en');
}

/** "Visa •••• 0002": the card's brand by its name and its last four (packages/shared, decision 0219). */
export { cardBrandName, formatCard };
