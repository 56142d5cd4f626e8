/** Delivery statuses as Twilio reports them (status callbacks) and SMTP relays answer (accepted/refused). */
export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'accepted' | 'refused';

/** What a provider says when it takes a message: its id and, when it knows one, the delivery status. */
export interface SendResult {
  providerId: string;
  status?: DeliveryStatus;
  /** Provider error code when status is failed/undelivered (Twilio 30003, ...). */
  errorCode?: string;
}

/** Sends one text message. Throws ProviderSendError when the provider refuses or cannot be reached. */
export interface SmsProvider {
  readonly name: 'twilio' | 'sandbox';
  send(msg: { to: string; body: string }): Promise<SendResult>;
}

/** A failed delivery. `permanent` means retrying cannot help (bad number, bad credentials): the outbox gives up. */
export class ProviderSendError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'ProviderSendError';
  }
}

/**
 * Phone numbers as Twilio wants them (E.164). Links hold what the coordinator typed: 10 US digits, 1 + 10 digits, or
 * an international number starting with +.
 */
export function toE164(phone: string): string | null {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return null;
}
