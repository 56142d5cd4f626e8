/** Starting the product, signing a patient in through the API, and reading a process's memory, for the bench. */
import fs from 'node:fs';
import { startProduct, type RunningProduct } from '../../e2e/support/server.js';
import { createLink, type TestLink } from '../../e2e/support/admin.js';
import { smsCode, waitForMessage } from '../../e2e/support/outbox.js';

export { startProduct, type RunningProduct };

/** Resident set size of a process in MB (Linux /proc), or undefined elsewhere. */
export function rssMb(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

export interface PatientSession {
  link: TestLink;
  token: string;
}

async function api(product: RunningProduct, method: string, url: string, body?: unknown, token?: string) {
  const r = await fetch(product.baseUrl + url, {
    method,
    headers: {
      'x-api-key': await apiKey(product),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} answered ${r.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The product API key (sandbox default unless the product was started with one). */
export async function apiKey(product: RunningProduct): Promise<string> {
  return product.env.PAYLINK_API_KEY ?? 'paylink-sandbox-api-key';
}

/** A link with a signed-in patient and a step list (so /check answers 200), through the public API. */
export async function signedInPatient(product: RunningProduct): Promise<PatientSession> {
  const link = await createLink(product);
  await api(product, 'POST', '/api/auth/sms/send', { linkId: link.id });
  const sms = await waitForMessage(product, { to: link.phone, channel: 'sms' });
  const session = (await api(product, 'POST', '/api/auth/sms/verify', { linkId: link.id, code: smsCode(sms) })) as {
    token: string;
  };
  const choice = { linkId: link.id, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 500 };
  await api(product, 'POST', '/api/linkpaymenthistory', choice, session.token);
  await api(
    product,
    'POST',
    `/api/linksteps/script?linkId=${link.id}&paymentTypeId=1&paymentSourceId=1&paymentAmount=500`,
    {},
    session.token,
  );
  return { link, token: session.token };
}
