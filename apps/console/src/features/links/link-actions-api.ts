import { call } from '../../shared/api/client';
import { consoleEndpoints, type CreateLinkBody } from '../../shared/api/contract';

export type SendChannel = 'sms' | 'email';

export const createLink = (body: CreateLinkBody) => call(consoleEndpoints.createLink, { body });
export const sendLink = (id: string, channel: SendChannel) =>
  call(consoleEndpoints.sendLink, { params: { id }, body: { channel } });
export const cancelLink = (id: string, reason: string) =>
  call(consoleEndpoints.cancelLink, { params: { id }, body: { reason } });
export const expireLink = (id: string, reason: string) =>
  call(consoleEndpoints.expireLink, { params: { id }, body: { reason } });
/** A paid link's receipt again (issue 29, item 4): where it went, masked. */
export const resendReceipt = (id: string) => call(consoleEndpoints.resendReceipt, { params: { id } });
export const extendLink = (id: string, days: number, reason: string) =>
  call(consoleEndpoints.extendLink, { params: { id }, body: { days, reason } });
