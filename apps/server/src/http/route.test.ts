import { routeTable } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/support/context.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('the shared route table (decision 0123)', () => {
  it('every route of the table is registered by the server with its method and path', () => {
    const registered = new Set(t.app.routeInventory.map((r) => `${r.method} ${r.url}`));
    const table = Object.entries(routeTable).flatMap(([area, routes]) =>
      Object.entries(routes).map(([name, r]) => ({ name: `${area}.${name}`, key: `${r.method} ${r.path}` })),
    );
    expect(table.length).toBeGreaterThan(15);
    expect(table.filter((r) => !registered.has(r.key))).toEqual([]);
    // One entry per route: two names for one method and path would type calls from whichever came first.
    expect(new Set(table.map((r) => r.key)).size).toBe(table.length);
  });

  it('validates with the table schemas: a query the table refuses never reaches the handler', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/api/auth/options?linkId=short',
      headers: { 'x-api-key': t.ctx.config.apiKey },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: 'invalid_request' });
  });
});
