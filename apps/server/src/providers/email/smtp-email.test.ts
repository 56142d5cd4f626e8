import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { apiHeaders, createTestApp } from '../../../test/support/context.js';
import { insertTestLink } from '../../../test/support/auth.js';
import { deliverDueMessages } from '../../modules/outbox/outbox-worker.js';
import { ProviderSendError } from '../sms/types.js';
import { smtpEmail } from './smtp-email.js';

/** A real SMTP server in this process: what nodemailer delivers arrives here over TCP. */
interface Received {
  from: string;
  to: string[];
  raw: string;
  user?: string;
}
let server: SMTPServer;
let port: number;
const inbox: Received[] = [];
let refuseNext = false;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'paylink' && auth.password === 'secret') return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (refuseNext) {
        refuseNext = false;
        const err = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  inbox.length = 0;
});

describe('SMTP e-mail provider (nodemailer → a real SMTP server)', () => {
  it('delivers HTML and text with the practice as sender name, authenticating when configured', async () => {
    const smtp = smtpEmail({
      host: '127.0.0.1',
      port,
      secure: false,
      user: 'paylink',
      password: 'secret',
      from: 'no-reply@pay.example.com',
    });
    const r = await smtp.send({
      to: 'ana@example.com',
      fromName: 'Bella Vista Plastic Surgery',
      subject: 'Inicie sesión',
      text: 'Hola Ana',
      html: '<p>Hola Ana</p>',
    });
    smtp.close?.();
    expect(r.providerId).toMatch(/^<.+@.+>$/);
    expect(inbox).toHaveLength(1);
    const m = inbox[0]!;
    expect(m.user).toBe('paylink');
    expect(m.from).toBe('no-reply@pay.example.com');
    expect(m.to).toEqual(['ana@example.com']);
    expect(m.raw).toMatch(/^From: Bella Vista Plastic Surgery <no-reply@pay\.example\.com>$/m);
    expect(m.raw).toMatch(/^Subject: =\?UTF-8\?/m); // non-ASCII subject is encoded
    expect(m.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(m.raw).toMatch(/Content-Type: text\/plain/);
    expect(m.raw).toMatch(/Content-Type: text\/html/);
  });

  it('a refused recipient is a permanent failure; a dead server is worth retrying', async () => {
    const smtp = smtpEmail({ host: '127.0.0.1', port, secure: false, from: 'no-reply@pay.example.com' });
    refuseNext = true;
    const refused = await smtp
      .send({ to: 'gone@example.com', fromName: 'X', subject: 's', text: 't' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderSendError);
    expect((refused as ProviderSendError).permanent).toBe(true);
    smtp.close?.();

    const dead = smtpEmail({ host: '127.0.0.1', port: 1, secure: false, from: 'no-reply@pay.example.com' });
    const err = await dead
      .send({ to: 'a@example.com', fromName: 'X', subject: 's', text: 't' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderSendError);
    expect((err as ProviderSendError).permanent).toBe(false);
  });

  it('the sign-in e-mail goes from the API through the outbox worker to the SMTP server', async () => {
    const { app, ctx, close } = await createTestApp({
      PAYLINK_MODE: 'sandbox',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_FROM: 'no-reply@pay.example.com',
    });
    try {
      expect(ctx.providers.email.name).toBe('smtp');
      const linkId = await insertTestLink(ctx.db, { method: 'email', language: 'es', email: 'lucia@example.com' });
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/email/send',
        headers: apiHeaders(ctx),
        payload: { linkId, email: 'lucia@example.com' },
      });
      expect(res.statusCode).toBe(200);
      expect(inbox).toHaveLength(0); // nothing leaves before the worker runs
      expect(await deliverDueMessages(ctx)).toEqual({ sent: 1, retrying: 0, failed: 0 });
      expect(inbox).toHaveLength(1);
      const raw = inbox[0]!.raw;
      expect(inbox[0]!.to).toEqual(['lucia@example.com']);
      expect(raw).toMatch(/^From: Bella Vista Plastic Surgery <no-reply@pay\.example\.com>$/m);
      // quoted-printable bodies: undo soft line breaks before looking for the link
      const body = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(body).toContain(`/auth?id=${linkId}&mode=signIn&oobCode=`);
      expect(body).toContain('lng=es');
      const row = await ctx.db.query<{ status: string; provider: string; body_text: string; body_html: string | null }>(
        'select status, provider, body_text, body_html from outbox_message',
      );
      expect(row.rows).toHaveLength(1);
      expect(row.rows[0]).toMatchObject({ status: 'sent', provider: 'smtp', body_html: null });
      // once the SMTP server has it, the stored copy no longer holds the sign-in link
      expect(row.rows[0]!.body_text).not.toContain('oobCode');
    } finally {
      ctx.providers.email.close?.();
      await close();
    }
  });
});
