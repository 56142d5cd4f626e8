import { randomBytes } from 'node:crypto';

/**
 * 22 URL-safe characters (~132 random bits): unguessable, and short enough for an SMS. Never starting with '-': a
 * command line would read such an id as an option (`paylink links show -Ab…`), and a spreadsheet as a formula.
 */
export function newLinkId(): string {
  for (;;) {
    const id = randomBytes(17).toString('base64url').slice(0, 22);
    if (id[0] !== '-') return id;
  }
}

/** Opaque random token for URLs and bearer credentials (256 bits). */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
