import { describe, expect, it } from 'vitest';
import { renderReceipt } from './payment-receipt.js';

const practice = { name: 'Bella Vista', senderName: 'Bella Vista', supportPhone: '', supportEmail: '', logoUrl: null };
const facts = {
  practice,
  amountCents: 123456,
  paidAt: new Date('2026-01-01T03:00:00Z'),
  cardBrand: 'amex',
  cardLast4: '0005',
  transactionId: 'T-1',
  approvalCode: 'ABC123',
};

describe('renderReceipt', () => {
  it('dates the payment in the practice time zone', () => {
    expect(renderReceipt({ ...facts, lang: 'en', timeZone: 'America/Chicago' }).text).toContain(
      'Date: December 31, 2025',
    );
    expect(renderReceipt({ ...facts, lang: 'en', timeZone: 'UTC' }).text).toContain('Date: January 1, 2026');
    expect(renderReceipt({ ...facts, lang: 'es', timeZone: 'UTC' }).text).toContain('Fecha: 1 de enero de 2026');
  });

  it('escapes what it is given and names the card', () => {
    const r = renderReceipt({ ...facts, lang: 'en', paidBy: '<b>Pat</b>', timeZone: 'UTC' });
    expect(r.text).toContain('American Express ending in 0005');
    expect(r.text).toContain('$1,234.56 (USD)');
    expect(r.html).toContain('&lt;b&gt;Pat&lt;/b&gt;');
    expect(r.html).not.toContain('<b>Pat</b>');
  });
});
