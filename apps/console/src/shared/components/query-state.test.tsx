import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import i18n, { initI18n } from '../i18n';
import { ErrorAlert } from './query-state';

// The server's bodies as it sends them: a code and an English sentence.
const refusal = (status: number, error: string, message: string, extra: object = {}) =>
  new ApiError(status, { error, message, ...extra });

function shown(error: unknown): string {
  const { unmount } = render(<ErrorAlert error={error} />);
  const text = screen.getByRole('alert').textContent ?? '';
  unmount();
  return text;
}

beforeAll(async () => {
  await initI18n('es');
});

describe('server refusals in the console language', () => {
  it('shows known codes in Spanish, not the server sentence', async () => {
    await i18n.changeLanguage('es');
    expect(shown(refusal(409, 'refund_exceeds_payment', 'The refund is more than what is left of this payment.'))).toBe(
      'El reembolso es mayor que lo que queda de este pago.',
    );
    expect(shown(refusal(409, 'staff_exists', 'A staff user with this e-mail already exists.'))).toBe(
      'Ya existe un usuario del personal con este correo.',
    );
    expect(shown(refusal(415, 'contract_not_pdf', 'The file is not a PDF.'))).toBe(
      'Este archivo no es un PDF. Suba el contrato como archivo PDF.',
    );
    expect(shown(refusal(422, 'idempotency_key_reused', 'Idempotency-Key reused with another body.'))).toBe(
      'Esta solicitud ya se envió con otros datos. Cierre el diálogo y empiece de nuevo.',
    );
    expect(
      shown(
        refusal(429, 'rate_limited', 'Too many requests from your address. Try again in 12 seconds.', {
          retryAfterSeconds: 12,
        }),
      ),
    ).toBe('Demasiados intentos. Espere 12 segundos e inténtelo de nuevo.');
  });

  it("fills a sentence's placeholders from the answer's details: the console's address (issue 25)", async () => {
    const elsewhere = refusal(
      403,
      'wrong_console_address',
      'This console is served at https://pay.example.com/console; open it there.',
      { details: { consoleUrl: 'https://pay.example.com/console' } },
    );
    await i18n.changeLanguage('es');
    expect(shown(elsewhere)).toBe('Esta consola se abre en https://pay.example.com/console; ábrala en esa dirección.');
    await i18n.changeLanguage('en');
    expect(shown(elsewhere)).toBe('This console is served at https://pay.example.com/console; open it there.');
  });

  it('falls back to the server sentence for a code the console does not know', async () => {
    await i18n.changeLanguage('es');
    expect(shown(refusal(409, 'brand_new_code', 'Something new the server says.'))).toBe(
      'Something new the server says.',
    );
  });

  it("a bad request: the general sentence in Spanish, the server's exact one in English", async () => {
    const bad = refusal(400, 'invalid_request', 'The webhook URL must use https.', { fields: { url: 'https' } });
    await i18n.changeLanguage('es');
    expect(shown(bad)).toBe('Algunos de los datos enviados no son válidos. Revise los campos e inténtelo de nuevo.');
    await i18n.changeLanguage('en');
    expect(shown(bad)).toBe('The webhook URL must use https.');
  });

  it('shows the English text in English', async () => {
    await i18n.changeLanguage('en');
    expect(shown(refusal(409, 'already_resolved', 'Already resolved.'))).toBe(
      'This second charge has already been given back.',
    );
  });
});
