import { describe, expect, it } from 'vitest';
import type { LinkMessage } from '../../shared/api/contract';
import { awaitingStatus } from './link-messages-api';

const now = Date.parse('2026-11-23T10:00:00Z');
const msg = (o: Partial<LinkMessage>): LinkMessage => ({
  id: 'm1',
  channel: 'sms',
  kind: 'link-send',
  to: '+15125550147',
  subject: null,
  status: 'sent',
  deliveryStatus: 'queued',
  deliveryError: null,
  createdAt: '2026-11-23T09:59:00Z',
  deliveryUpdatedAt: null,
  ...o,
});

describe('the messages card polls only while a fresh message waits for its status', () => {
  it('polls for a pending or queued message of the last ten minutes', () => {
    expect(awaitingStatus([msg({ status: 'pending', deliveryStatus: null })], now)).toBe(true);
    expect(awaitingStatus([msg({ deliveryStatus: 'sent' })], now)).toBe(true);
  });
  it('stops at a final status, a failed outbox row, or after ten minutes', () => {
    expect(awaitingStatus([msg({ deliveryStatus: 'delivered' })], now)).toBe(false);
    expect(awaitingStatus([msg({ channel: 'email', deliveryStatus: 'accepted' })], now)).toBe(false);
    expect(awaitingStatus([msg({ status: 'failed', deliveryStatus: null })], now)).toBe(false);
    expect(awaitingStatus([msg({ createdAt: '2026-11-23T09:49:00Z' })], now)).toBe(false);
  });
});
