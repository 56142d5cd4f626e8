import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../test/support/context.js';
import { seedLink } from '../seed/sample-links.js';
import { issueSession, verifySessionToken } from './session-tokens.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());
afterEach(() => vi.useRealTimers());

async function token(ttlMinutes = 60) {
  const { link } = await seedLink(t.ctx, {});
  const keys = { ...t.ctx.sessionKeys, ttlMinutes };
  return { keys, ...(await issueSession({ db: t.ctx.db, keys, linkId: link.id, method: 'test' })) };
}

describe('session tokens: signatures checked once per token (issue 17)', () => {
  it('a verified token verifies again; a token with another signature is refused', async () => {
    const s = await token();
    const first = await verifySessionToken({ keys: s.keys, token: s.token });
    expect(first).toMatchObject({ linkId: s.linkId, sessionId: s.sessionId });
    expect(await verifySessionToken({ keys: s.keys, token: s.token })).toEqual(first);
    // A character well inside the signature (the last one carries padding bits).
    const i = s.token.length - 10;
    const forged = s.token.slice(0, i) + (s.token[i] === 'A' ? 'B' : 'A') + s.token.slice(i + 1);
    await expect(verifySessionToken({ keys: s.keys, token: forged })).rejects.toMatchObject({
      code: 'unauthorized',
    });
  });

  it('a token verified before it expired is refused once it has', async () => {
    const s = await token(1);
    await verifySessionToken({ keys: s.keys, token: s.token });
    vi.useFakeTimers({ now: Date.now() + 2 * 60_000, toFake: ['Date'] });
    await expect(verifySessionToken({ keys: s.keys, token: s.token })).rejects.toThrow(/expired/);
  });

  it('a token signed with another secret is refused, whatever this one verified', async () => {
    const s = await token();
    await verifySessionToken({ keys: s.keys, token: s.token });
    const other = { ...s.keys, secret: new TextEncoder().encode('another-secret-0123456789abcdef0123') };
    await expect(verifySessionToken({ keys: other, token: s.token })).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
