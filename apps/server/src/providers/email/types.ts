export interface EmailMessage {
  to: string;
  /** Display name of the sender (the practice); the address is SMTP_FROM. */
  fromName: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends one e-mail. Throws ProviderSendError (from ../sms/types.js) when the server refuses or cannot be reached. */
export interface EmailProvider {
  readonly name: 'smtp' | 'sandbox';
  send(msg: EmailMessage): Promise<{ providerId: string }>;
  close?(): void;
}
