import type { SendResult } from '../sms/types.js';

export interface EmailMessage {
  to: string;
  /** Display name of the sender (the practice); the address is SMTP_FROM. */
  fromName: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

/** Sends one e-mail. Throws ProviderSendError (from ../sms/types.js) when the server refuses or cannot be reached. */
export interface EmailProvider {
  readonly name: 'smtp' | 'sandbox';
  send(msg: EmailMessage): Promise<SendResult>;
  close?(): void;
}
