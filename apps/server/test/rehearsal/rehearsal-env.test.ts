import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRehearsal, type Rehearsal } from '../../../../e2e/support/rehearsal.js';
import { loadConfig } from '../../src/config.js';
import { loadProviders } from '../../src/providers/index.js';
import { createTestDb } from '../support/test-db.js';

/** startRehearsal()'s environment is a production configuration with every provider real (decision 0189). */
let r: Rehearsal;
beforeAll(async () => {
  r = await startRehearsal({ logLevel: 'silent' });
});
afterAll(async () => r?.stop());

describe('the production rehearsal environment', () => {
  it('puts the product in production mode with the real adapters, each at its stand-in', async () => {
    const config = loadConfig(r.env);
    expect(config.mode).toBe('production');
    expect(config.sandbox).toEqual({ sms: false, email: false, captcha: false, gateway: false });
    expect(config.publicUrl).toBe(r.publicUrl);
    const db = await createTestDb();
    try {
      const p = await loadProviders({ config, db });
      expect([p.sms.name, p.email.name, p.captcha.name, p.gateway.kind, p.storage.driver]).toEqual([
        'twilio',
        'smtp',
        'turnstile',
        'converge',
        's3',
      ]);
      p.email.close?.();
    } finally {
      await db.close();
    }
    for (const url of [config.TWILIO_API_BASE_URL, config.TURNSTILE_VERIFY_URL, config.CONVERGE_API_BASE!]) {
      expect(new URL(url).hostname).toBe('127.0.0.1');
    }
  });

  it('every stand-in answers', async () => {
    expect((await fetch(r.stand.turnstile.scriptUrl)).status).toBe(200);
    expect((await fetch(`${r.stand.gateway.origin}/healthz`)).status).toBe(200);
    const twilio = await fetch(
      `${r.stand.twilio.baseUrl}/2010-04-01/Accounts/${r.stand.twilio.accountSid}/Messages.json`,
      {
        method: 'POST',
      },
    );
    expect(twilio.status).toBe(401);
  });
});
