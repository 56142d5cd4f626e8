import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/client.js';
import { databaseKey, keyRing, type SecretSource } from '../../lib/secret-keys.js';
import { getOrCreateSecret } from '../../lib/secrets.js';

/**
 * A plan's card token at rest (decision 0207), sealed as staff TOTP secrets are: AES-256-GCM, `v2.<key id>.<iv>.<body>
 * .<tag>` with a key derived from PAYLINK_SECRETS_KEY, or `v1.<iv>.<body>.<tag>` with a per-database key in sandbox
 * mode without it. The per-database key is read through the caller's transaction: the deposit seals inside the
 * approval's transaction, where a query on the pool would wait for that very transaction (PGlite).
 */
type CardKeySource = SecretSource & { q: Queryable };

const PURPOSE = 'card-token';

// With PAYLINK_SECRETS_KEY the ring is derived from config alone: no query.
const configured = (src: CardKeySource) => keyRing(src, PURPOSE);

async function perDatabaseKey(q: Queryable): Promise<Buffer> {
  return databaseKey(await getOrCreateSecret(q, PURPOSE), PURPOSE);
}

function seal(key: Buffer, text: string): string[] {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(text, 'utf8'), c.final()]);
  return [iv.toString('base64url'), body.toString('base64url'), c.getAuthTag().toString('base64url')];
}

function unseal(key: Buffer, [iv, body, tag]: string[]): string {
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
  d.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body!, 'base64url')), d.final()]).toString('utf8');
}

export async function sealCardToken(src: CardKeySource, token: string): Promise<string> {
  if (!src.config.PAYLINK_SECRETS_KEY) return ['v1', ...seal(await perDatabaseKey(src.q), token)].join('.');
  const ring = await configured(src);
  return ['v2', ring.current.id, ...seal(ring.current.key, token)].join('.');
}

/** The gateway token of a sealed card (for the scheduler's charges). */
export async function openCardToken(src: CardKeySource, sealed: string): Promise<string> {
  const parts = sealed.split('.');
  if (parts[0] === 'v1' && parts.length === 4) return unseal(await perDatabaseKey(src.q), parts.slice(1));
  if (parts[0] === 'v2' && parts.length === 5 && src.config.PAYLINK_SECRETS_KEY) {
    const ring = await configured(src);
    const key = [ring.current, ...ring.previous].find((k) => k.id === parts[1]);
    if (key) return unseal(key.key, parts.slice(2));
    throw new Error('a card token is sealed with a key that is neither PAYLINK_SECRETS_KEY nor its previous value');
  }
  throw new Error('unreadable card token');
}
