import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpStandIn, type SmtpStandIn } from '../../../../e2e/support/stand-ins/smtp.js';
import { loadConfig } from '../../src/config.js';
import { loadEmailProvider } from '../../src/providers/email/load-email.js';
import { ProviderSendError } from '../../src/providers/sms/types.js';

/**
 * The production rehearsal's mail server (decision 0189): the real SMTP adapter, configured from SMTP_* as a practice
 * configures it, signs in to a real SMTP server (smtp-server, AUTH required) and the message arrives parsed.
 */
let smtp: SmtpStandIn;
beforeAll(async () => {
  smtp = await startSmtpStandIn({ user: 'paylink', password: 'smtp-secret' });
});
afterAll(async () => smtp?.stop());

const emailFrom = (env: Record<string, string>) =>
  loadEmailProvider(
    loadConfig({
      PAYLINK_MODE: 'sandbox',
      SMTP_HOST: smtp.host,
      SMTP_PORT: String(smtp.port),
      SMTP_SECURE: 'false',
      SMTP_FROM: 'no-reply@bellavista.example',
      ...env,
    }),
  );

describe('SMTP adapter ↔ smtp-server with AUTH', () => {
  it('signs in with SMTP_USER / SMTP_PASSWORD and delivers subject, text, HTML and headers', async () => {
    const email = emailFrom({ SMTP_USER: 'paylink', SMTP_PASSWORD: 'smtp-secret' });
    try {
      const r = await email.send({
        to: 'ana@example.com',
        fromName: 'Bella Vista Plastic Surgery',
        subject: 'Your receipt',
        text: 'Thank you: $125.00 received.',
        html: '<p>Thank you: <b>$125.00</b> received.</p>',
        headers: { 'List-Unsubscribe': '<https://pay.example/unsubscribe?t=abc>' },
      });
      expect(r.status).toBe('accepted');
      const m = await smtp.waitForMail('ana@example.com');
      expect(m).toMatchObject({
        user: 'paylink',
        envelopeFrom: 'no-reply@bellavista.example',
        envelopeTo: ['ana@example.com'],
        to: ['ana@example.com'],
        from: '"Bella Vista Plastic Surgery" <no-reply@bellavista.example>',
        subject: 'Your receipt',
        text: 'Thank you: $125.00 received.',
        html: '<p>Thank you: <b>$125.00</b> received.</p>',
      });
      expect(m.header('List-Unsubscribe')).toBe('<https://pay.example/unsubscribe?t=abc>');
    } finally {
      email.close?.();
    }
  });

  it('a wrong password is refused by the server (535): a permanent failure, nothing delivered', async () => {
    const email = emailFrom({ SMTP_USER: 'paylink', SMTP_PASSWORD: 'wrong' });
    const before = smtp.mails.length;
    const failures = smtp.authFailures;
    try {
      const e = (await email
        .send({ to: 'bo@example.com', fromName: 'P', subject: 's', text: 't' })
        .catch((err: unknown) => err)) as ProviderSendError;
      expect(e).toBeInstanceOf(ProviderSendError);
      expect(e.permanent).toBe(true);
      expect(smtp.authFailures).toBe(failures + 1);
      expect(smtp.mails.length).toBe(before);
    } finally {
      email.close?.();
    }
  });

  it('without credentials the server wants AUTH first (530)', async () => {
    const email = emailFrom({});
    const before = smtp.mails.length;
    try {
      const e = (await email
        .send({ to: 'cy@example.com', fromName: 'P', subject: 's', text: 't' })
        .catch((err: unknown) => err)) as ProviderSendError;
      expect(e).toBeInstanceOf(ProviderSendError);
      expect(e.message).toMatch(/530|auth/i);
      expect(smtp.mails.length).toBe(before);
    } finally {
      email.close?.();
    }
  });
});
