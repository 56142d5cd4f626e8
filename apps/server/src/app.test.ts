import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/support/context.js';

describe('composition root', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers /healthz when the database answers', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok', database: 'up' });
  });

  it('sends security headers', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses API calls without the API key', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/anything' });
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ error: 'invalid_api_key' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { 'x-api-key': t.ctx.config.apiKey },
    });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ error: 'not_found' });
  });

  it('keeps audit rows append-only', async () => {
    await t.ctx.db.query(`insert into audit_event (actor_type, action) values ('system', 'test')`);
    await expect(t.ctx.db.query(`update audit_event set action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(t.ctx.db.query(`delete from audit_event`)).rejects.toThrow(/append-only/);
  });
});

describe('health when the database is gone', () => {
  it('answers 503 with database: down, and the process keeps serving', async () => {
    const t = await createTestApp();
    await t.ctx.db.close();
    const r = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ status: 'unavailable', database: 'down' });
    await t.app.close();
  });
});
