import { createHash, hkdfSync } from 'node:crypto';
import type { Db } from '../db/client.js';
import { getOrCreateSecret } from './secrets.js';

/**
 * Keys for what a database dump must not open (issue 26): the HMAC of sign-in codes and e-mail sign-in tokens
 * ('auth-otp') and the encryption of staff TOTP secrets ('staff-totp') and of plans' card tokens ('card-token'). With PAYLINK_SECRETS_KEY each is derived
 * from it with HKDF-SHA256 (one key per purpose), so nothing in the database opens them; PAYLINK_SECRETS_KEY_PREVIOUS
 * is still accepted while a rotation runs. Without it (sandbox mode only) the per-database key of decision 0013/0132.
 */
export type KeyPurpose = 'auth-otp' | 'staff-totp' | 'card-token';

export interface NamedKey {
  /** Short id of the key (8 hex digits of its SHA-256), stored with what it sealed. */
  id: string;
  key: Buffer;
}

export interface KeyRing {
  current: NamedKey;
  /** Keys still accepted: the previous configured key. */
  previous: NamedKey[];
  fromConfig: boolean;
}

export interface SecretSource {
  db: Db;
  config: { PAYLINK_SECRETS_KEY?: string; PAYLINK_SECRETS_KEY_PREVIOUS?: string };
}

const named = (key: Buffer): NamedKey => ({ id: createHash('sha256').update(key).digest('hex').slice(0, 8), key });

function derive(secret: string, purpose: KeyPurpose): NamedKey {
  return named(Buffer.from(hkdfSync('sha256', secret, 'paylink-secrets-v1', purpose, 32)));
}

/** The per-database key as decisions 0013 and 0132 derived it (sandbox mode without PAYLINK_SECRETS_KEY). */
export function databaseKey(value: string, purpose: KeyPurpose): Buffer {
  return purpose === 'auth-otp' ? Buffer.from(value, 'utf8') : createHash('sha256').update(value).digest();
}

const dbKeys = new WeakMap<Db, Map<KeyPurpose, Promise<Buffer>>>();

export async function keyRing(src: SecretSource, purpose: KeyPurpose): Promise<KeyRing> {
  const { PAYLINK_SECRETS_KEY: key, PAYLINK_SECRETS_KEY_PREVIOUS: previous } = src.config;
  if (key) {
    return { current: derive(key, purpose), previous: previous ? [derive(previous, purpose)] : [], fromConfig: true };
  }
  let perDb = dbKeys.get(src.db);
  if (!perDb) dbKeys.set(src.db, (perDb = new Map()));
  let k = perDb.get(purpose);
  if (!k) {
    k = getOrCreateSecret(src.db, purpose).then((v) => databaseKey(v, purpose));
    k.catch(() => perDb.delete(purpose));
    perDb.set(purpose, k);
  }
  return { current: named(await k), previous: [], fromConfig: false };
}
