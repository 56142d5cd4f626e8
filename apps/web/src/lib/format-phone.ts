/**
 * A phone number as people read it: US numbers (10 digits, or 11 starting with 1) as "(555) 010-1111", like the
 * masked number on /auth; other numbers are shown as stored.
 */
export function formatPhone(phone: string | null | undefined): string {
  const raw = (phone ?? '').trim();
  const digits = raw.replace(/\D+/g, '');
  const us = digits.length === 10 ? digits : digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : null;
  if (!us || (raw.startsWith('+') && !raw.startsWith('+1'))) return raw;
  return `(${us.slice(0, 3)}) ${us.slice(3, 6)}-${us.slice(6)}`;
}
