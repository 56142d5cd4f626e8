import { api } from '../../shared/api/client';

export type SendChannel = 'sms' | 'email';

export const createLink = (body: unknown) =>
  api.post<{ id: string; url: string; expiresAt: string }>('/api/admin/links', { body });
export const sendLink = (id: string, channel: SendChannel) =>
  api.post<unknown>(`/api/admin/links/${encodeURIComponent(id)}/send`, { body: { channel } });
export const cancelLink = (id: string, reason: string) =>
  api.post<unknown>(`/api/admin/links/${encodeURIComponent(id)}/cancel`, { body: { reason } });
export const expireLink = (id: string, reason: string) =>
  api.post<unknown>(`/api/admin/links/${encodeURIComponent(id)}/expire`, { body: { reason } });
export const extendLink = (id: string, days: number, reason: string) =>
  api.post<unknown>(`/api/admin/links/${encodeURIComponent(id)}/extend`, { body: { days, reason } });
