import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/context.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Op = { operationId?: string; responses?: Record<string, unknown> };

/** The document practices integrate with: Redocly's recommended rules, every operation named and its refusals listed. */
describe('OpenAPI document quality', () => {
  it("passes Redocly's recommended lint with no errors", async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const describe = (p: (typeof problems)[number]) =>
      `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`;
    const errors = problems.filter((p) => p.severity === 'error').map(describe);
    expect(errors).toEqual([]);
  });

  it('names every operation uniquely and documents at least one refusal (4xx) for each', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json() as { paths: Record<string, Record<string, Op>> };
    const ids = new Set<string>();
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        expect(op.operationId, `${m} ${p} operationId`).toBeTruthy();
        expect(ids.has(op.operationId!), `${op.operationId} used twice`).toBe(false);
        ids.add(op.operationId!);
        expect(
          Object.keys(op.responses ?? {}).some((c) => c.startsWith('4')),
          `${m} ${p} documents no 4xx answer`,
        ).toBe(true);
      }
    }
  });
});
