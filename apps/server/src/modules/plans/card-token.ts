import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keyRing, type SecretSource } from '../../lib/secret-keys.js';

/**
 * A stored card's gateway token at rest (stored_card.token_sealed): AES-256-GCM under the 'card-token' key,
 * `v2.<key id>.<iv>.<body>.<tag>` like staff TOTP secrets, so a database dump alone charges no card.
 */
export async function sealCardToken(src: SecretSource, token: string): Promise<string> {
  const ring = await keyRing(src, 'card-token');
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', ring.current.key, iv);
  const body = Buffer.concat([c.update(token, 'utf8'), c.final()]);
  return ['v2', ring.current.id, iv, body, c.getAuthTag()]
    .map((x) => (typeof x === 'string' ? x : x.toString('base64url')))
    .join('.');
}

export async function openCardToken(src: SecretSource, sealed: string): Promise<string> {
  const [v, id, iv, body, tag] = sealed.split('.');
  if (v !== 'v2' || !iv || !body || !tag) throw new Error('stored card token: unknown sealing');
  const ring = await keyRing(src, 'card-token');
  const key = [ring.current, ...ring.previous].find((k) => k.id === id);
  if (!key) throw new Error('stored card token: sealed with a key that is not configured');
  const d = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}
