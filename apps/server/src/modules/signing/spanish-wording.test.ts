import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');

/**
 * One Spanish word for "amount" across the app, the SMS/e-mail texts and the PDFs (issue 16, item 9): "monto", as
 * most US Spanish speakers say it. "Importe" must not come back in any patient-facing Spanish text.
 */
describe('Spanish wording', () => {
  const sources = [
    'apps/web/public/locales/es/common.json',
    'apps/web/public/locales/es/payment.json',
    'apps/web/public/locales/es/steps.json',
    'apps/server/src/modules/signing/sign-texts.ts',
    'apps/server/src/modules/payments/payment-receipt.ts',
    // The refund receipt, the evidence pack and the console's catalogues too (issue 29, item 11).
    'apps/server/src/modules/refunds/refund-receipt.ts',
    'apps/server/src/modules/evidence/evidence-texts.ts',
    ...fs
      .readdirSync(path.join(ROOT, 'apps/console/src/shared/i18n'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => `apps/console/src/shared/i18n/${f}`),
    ...fs
      .readdirSync(path.join(ROOT, 'apps/server/src/modules/outbox'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => `apps/server/src/modules/outbox/${f}`),
  ];

  it.each(sources)('%s says "monto", never "importe"', (file) => {
    expect(read(file)).not.toMatch(/\bimportes?\b/i);
  });

  it('the Spanish payment page and the PDFs use "Monto"', () => {
    expect(JSON.parse(read('apps/web/public/locales/es/payment.json')).amount).toBe('Monto');
    expect(read('apps/server/src/modules/signing/sign-texts.ts')).toContain("amount: 'Monto'");
  });

  it('the payor authorisation names the card form on this page, not a next screen', () => {
    const texts = read('apps/server/src/modules/signing/sign-texts.ts');
    expect(texts).not.toMatch(/next screen|siguiente pantalla/);
    expect(texts).toContain('in the card form on this page');
  });
});
