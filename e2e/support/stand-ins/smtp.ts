import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 that requires AUTH (PLAIN or LOGIN) with one user and
 * password, and parses what it receives with `mailparser`, so tests read what a mailbox would show: to, subject, text,
 * HTML, headers, attachments. Plain SMTP without STARTTLS (the product's SMTP_SECURE=false path); mail from anyone
 * not signed in is refused with 530, as a submission server does.
 */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO). */
  envelopeTo: string[];
  envelopeFrom: string;
  /** The user the client signed in as. */
  user: string;
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  /** mailparser's structured headers (List-* headers are under `list`). */
  headers: Map<string, unknown>;
  /** Each header as sent, by lower-case name: `header('list-unsubscribe')` → `<https://…>`. */
  header(name: string): string | undefined;
  attachments: { filename: string | undefined; contentType: string; size: number }[];
  receivedAt: Date;
}

export interface SmtpStandIn {
  host: string;
  port: number;
  user: string;
  password: string;
  mails: ReceivedMail[];
  /** Failed sign-ins seen (a wrong password from the product shows here). */
  authFailures: number;
  latestTo(address: string): ReceivedMail | undefined;
  waitForMail(address: string, opts?: { since?: Date; timeoutMs?: number }): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => (v.address ?? '').toLowerCase()));

export async function startSmtpStandIn(opts: { user?: string; password?: string } = {}): Promise<SmtpStandIn> {
  const user = opts.user ?? 'paylink';
  const password = opts.password ?? randomBytes(12).toString('hex');
  const mails: ReceivedMail[] = [];
  const state = { authFailures: 0 };
  const server = new SMTPServer({
    logger: false,
    banner: 'Paylink rehearsal SMTP stand-in',
    authMethods: ['PLAIN', 'LOGIN'],
    // Credentials over plain TCP on loopback only; a real relay would offer STARTTLS first.
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    size: 25 * 1024 * 1024,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === password) return cb(null, { user: auth.username });
      state.authFailures++;
      return cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            user: String(session.user ?? ''),
            to: addresses(parsed.to),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            headers: parsed.headers,
            header: (name) =>
              parsed.headerLines
                .find((h) => h.key === name.toLowerCase())
                ?.line.replace(/^[^:]*:\s*/, '')
                .replace(/\r?\n\s+/g, ' '),
            attachments: parsed.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              size: a.size,
            })),
            receivedAt: new Date(),
          });
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const latestTo = (address: string, since?: Date) =>
    mails.findLast(
      (m) =>
        (m.envelopeTo.includes(address.toLowerCase()) || m.to.includes(address.toLowerCase())) &&
        (!since || m.receivedAt >= since),
    );
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    mails,
    get authFailures() {
      return state.authFailures;
    },
    latestTo: (address) => latestTo(address),
    waitForMail: async (address, o = {}) => {
      const deadline = Date.now() + (o.timeoutMs ?? 15_000);
      for (;;) {
        const m = latestTo(address, o.since);
        if (m) return m;
        if (Date.now() > deadline) throw new Error(`SMTP stand-in: no mail to ${address} within the time allowed`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
