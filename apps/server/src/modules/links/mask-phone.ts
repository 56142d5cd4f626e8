/**
 * The phone number shown on the sign-in page: only the last 4 digits, so the link alone does not reveal a patient's
 * number. US numbers read `(***) ***-4567`; others `***-***-4567`.
 */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D+/g, '');
  if (digits.length === 0) return '';
  if (digits.length < 4) return '****';
  const last4 = digits.slice(-4);
  const us = digits.length === 10 || (digits.length === 11 && digits.startsWith('1'));
  return us ? `(***) ***-${last4}` : `***-***-${last4}`;
}
