import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RunningProduct } from './server.js';
import { eventually } from './wait.js';

/** What a coordinator types when creating a link (the admin API's createLinkBodySchema, all optional here). */
export interface LinkOptions {
  firstName?: string;
  lastName?: string;
  address?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  phone?: string;
  email?: string;
  payorName?: string;
  payorEmail?: string;
  isPaymentLinkLocked?: boolean;
  signInMethod?: 'sms' | 'email';
  language?: 'en' | 'es';
  expiresIn?: string;
  procedureDescription?: string;
  /** A payment plan (issue 28): the admin API's `plan`, e.g. { total: 2000, kind: 'single', dueOn: '2027-01-15' }. */
  plan?: Record<string, unknown>;
}

export interface TestLink {
  id: string;
  /** The patient's personal link: `<PUBLIC_URL>/auth?id=<id>`. */
  url: string;
  phone: string;
  email: string;
  payorEmail: string | undefined;
  input: Required<Pick<LinkOptions, 'firstName' | 'lastName' | 'address' | 'city' | 'state' | 'zipCode'>> & LinkOptions;
}

/** Tokens given to a running product after it started (production mode has no data-dir token: see setAdminToken). */
const signedInTokens = new WeakMap<RunningProduct, string>();

/**
 * Makes `token` the one admin() sends to this product. In production mode the server writes no token file: a staff
 * member signs in with two-factor first (e2e/support/rehearsal.ts signInStaff does, and calls this).
 */
export function setAdminToken(product: RunningProduct, token: string): void {
  signedInTokens.set(product, token);
}

/**
 * The staff token given with setAdminToken, else PAYLINK_ADMIN_TOKEN when the product was started with one, else the
 * one the server writes into its data dir on first start in sandbox mode (the CLI's zero-config credential).
 */
export async function adminToken(product: RunningProduct): Promise<string> {
  const given = signedInTokens.get(product);
  if (given) return given;
  if (product.env.PAYLINK_ADMIN_TOKEN) return product.env.PAYLINK_ADMIN_TOKEN;
  return eventually(
    () => {
      const candidates = fs
        .readdirSync(product.dataDir)
        .filter((f) => /token/i.test(f) && fs.statSync(path.join(product.dataDir, f)).isFile());
      for (const f of candidates) {
        const raw = fs.readFileSync(path.join(product.dataDir, f), 'utf8').trim();
        if (!raw) continue;
        if (raw.startsWith('{')) {
          const j = JSON.parse(raw) as { token?: string };
          if (j.token) return j.token;
        } else return raw.split(/\s+/)[0];
      }
      return undefined;
    },
    { timeout: 10_000, message: `an admin token file in ${product.dataDir}` },
  );
}

export async function admin<T = unknown>(
  product: RunningProduct,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  urlPath: string,
  body?: unknown,
): Promise<T> {
  const r = await fetch(`${product.baseUrl}/api/admin${urlPath}`, {
    method,
    headers: {
      authorization: `Bearer ${await adminToken(product)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} /api/admin${urlPath} answered ${r.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A unique US number in the 555-01xx fiction range, so every test reads only its own SMS. */
export function uniquePhone(): string {
  return `+1555${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}
export function uniqueEmail(who = 'patient'): string {
  return `${who}.${randomBytes(4).toString('hex')}@example.com`;
}

/** Creates a link through the admin API with realistic patient data; unique phone and e-mail per call. */
export async function createLink(product: RunningProduct, options: LinkOptions = {}): Promise<TestLink> {
  const input = {
    firstName: 'Maria',
    lastName: 'Garcia',
    address: '1200 Ocean Avenue',
    city: 'Santa Monica',
    state: 'CA',
    zipCode: '90401',
    phone: uniquePhone(),
    email: uniqueEmail(),
    signInMethod: 'sms' as const,
    language: 'en' as const,
    procedureDescription: 'Rhinoplasty consultation and surgery',
    ...options,
  };
  const created = await admin<{ id: string; url: string }>(product, 'POST', '/links', input);
  return {
    id: created.id,
    url: created.url,
    phone: input.phone,
    email: input.email,
    payorEmail: input.payorEmail,
    input,
  };
}

export interface AdminLink {
  id: string;
  status: 'active' | 'expired' | 'cancelled' | 'completed';
  progress: { completed: number; total: number; currentRoutePath: string | null };
  payment: {
    status: string;
    paymentTypeId: number;
    paymentSourceId: number;
    amount: number;
    transactionId: string | null;
    approvalCode: string | null;
  } | null;
  steps?: { routePath: string; linkStepStatusId: number }[];
}

/** One link as the coordinator sees it (`GET /api/admin/links/:id`): status, progress, payment, steps. */
export function getLink(product: RunningProduct, id: string): Promise<AdminLink> {
  return admin<AdminLink>(product, 'GET', `/links/${id}`);
}
export async function cancelLink(product: RunningProduct, id: string): Promise<void> {
  await admin(product, 'POST', `/links/${id}/cancel`, {});
}
export async function expireLink(product: RunningProduct, id: string): Promise<void> {
  await admin(product, 'POST', `/links/${id}/expire`, {});
}
