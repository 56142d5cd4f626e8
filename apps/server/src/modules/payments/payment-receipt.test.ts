import { describe, expect, it } from 'vitest';
import { renderReceipt, renderSmsReceipt } from './payment-receipt.js';

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

describe('the receipt of a plan deposit', () => {
  const plan = {
    installments: [
      { dueOn: '2027-01-15', amountCents: 150_000 },
      { dueOn: '2027-02-15', amountCents: 150_000 },
    ],
    agreement: { version: '2026-11-27', title: 'Card-on-file agreement', paragraphs: ['I authorise Bella Vista …'] },
  };

  it('lists the balance’s charges and the agreement as accepted, with its version', () => {
    const text = renderReceipt({ ...facts, lang: 'en', timeZone: 'UTC', plan }).text;
    expect(text).toContain('The balance will be charged to the same card on this schedule:');
    expect(text).toContain('January 15, 2027: $1,500.00');
    expect(text).toContain('February 15, 2027: $1,500.00');
    expect(text).toContain('Card-on-file agreement (version 2026-11-27), as you accepted it:');
    expect(text).toContain('I authorise Bella Vista …');
    const es = renderReceipt({ ...facts, lang: 'es', timeZone: 'UTC', plan }).text;
    expect(es).toContain('El saldo se cobrará en la misma tarjeta según este calendario:');
    expect(es).toContain('15 de enero de 2027: $1,500.00');
    // A link without a plan: the receipt as before.
    expect(renderReceipt({ ...facts, lang: 'en', timeZone: 'UTC' }).text).not.toContain('schedule');
  });

  it('adds one short line to the SMS, Spanish without accents', () => {
    expect(renderSmsReceipt({ ...facts, lang: 'en', plan })).toMatch(
      /Keep this text as your receipt\. Balance: 2 charges from Jan 15, 2027; see your link\.$/,
    );
    const es = renderSmsReceipt({ ...facts, lang: 'es', plan });
    expect(es).toMatch(/Saldo: 2 cobros desde el 15 ene 2027; vea su enlace\.$/);
    expect(es).toMatch(/^[\x20-\x7E]+$/);
    expect(renderSmsReceipt({ ...facts, lang: 'en' })).not.toContain('Balance');
    expect(renderSmsReceipt({ ...facts, lang: 'en', url: 'https://pay.example.com/auth?id=abc' })).toMatch(
      /Keep this text as your receipt\. https:\/\/pay\.example\.com\/auth\?id=abc$/,
    );
  });
});
