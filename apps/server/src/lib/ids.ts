import { randomBytes } from 'node:crypto';

/** 22 URL-safe characters = 132 random bits: unguessable, and short enough for an SMS. */
export function newLinkId(): string {
  return randomBytes(17).toString('base64url').slice(0, 22);
}

/** Opaque random token for URLs and bearer credentials (256 bits). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
