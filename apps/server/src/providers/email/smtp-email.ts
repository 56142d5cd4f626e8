import nodemailer from 'nodemailer';
import { ProviderSendError } from '../sms/types.js';
import type { EmailProvider } from './types.js';

export interface SmtpOptions {
  host: string;
  port: number;
  /** true = TLS from the first byte (port 465); false = STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
  /** Tests talk to a local server with a self-signed certificate. */
  rejectUnauthorized?: boolean;
}

/** SMTP through nodemailer. The practice name is the sender's display name: "Practice" <SMTP_FROM>. */
export function smtpEmail(opts: SmtpOptions): EmailProvider {
  const transport = nodemailer.createTransport({
    host: opts.host,
    port: opts.port,
    secure: opts.secure,
    auth: opts.user ? { user: opts.user, pass: opts.password ?? '' } : undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    tls: opts.rejectUnauthorized === false ? { rejectUnauthorized: false } : undefined,
  });
  return {
    name: 'smtp',
    async send(msg) {
      try {
        const info = await transport.sendMail({
          from: { name: msg.fromName, address: opts.from },
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          html: msg.html,
          headers: msg.headers,
        });
        if (info.rejected.length > 0) throw new ProviderSendError(`recipient refused: ${String(info.response)}`, true);
        return { providerId: info.messageId, status: 'accepted' };
      } catch (err) {
        if (err instanceof ProviderSendError) throw err;
        const e = err as Error & { responseCode?: number };
        // 5xx SMTP replies are permanent refusals; connection problems and 4xx are worth retrying.
        throw new ProviderSendError(`SMTP: ${e.message}`, typeof e.responseCode === 'number' && e.responseCode >= 500);
      }
    },
    close() {
      transport.close();
    },
  };
}
