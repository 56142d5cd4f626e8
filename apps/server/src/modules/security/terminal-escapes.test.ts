import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { StepRoutes } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../../seed/seed-staff.js';
import { seedLink } from '../../seed/sample-links.js';
import { createTestApp } from '../../../test/support/context.js';
import { prepareStepDocuments } from '../signing/prepare-step-documents.js';
import { buildSignServer } from '../signing/sign-server.js';
import { seedLinkWithSteps } from '../../../test/support/signing-fixtures.js';

/** Issue 11, finding 4: patient- and staff-entered names never carry terminal escape sequences to the CLI. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const EVIL =
  'Ana\u001b]0;owned\u0007\u001b[2J\u001b]8;;http://evil.example\u001b\\click\u001b]8;;\u001b\\\u009b31m\u202e';
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

let t: Awaited<ReturnType<typeof createTestApp>>;
let sign: FastifyInstance;
let baseUrl: string;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  sign = await buildSignServer(t.ctx);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  token = await staffToken(t.ctx.db, { email: 'cli-escapes@example.com', role: 'admin' });
});
afterAll(async () => {
  await sign?.close();
  await t?.close();
});

function cli(args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('PAYLINK_') && k !== 'PORT'),
    ) as Record<string, string>;
    execFile(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
      { cwd: ROOT, env: { ...clean, PAYLINK_URL: baseUrl, PAYLINK_ADMIN_TOKEN: token }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('terminal escape injection', () => {
  it('a signer name is stored without controls or bidi overrides', async () => {
    const seeded = await seedLinkWithSteps(t.ctx.db, {});
    await t.ctx.db.transaction((tx) => prepareStepDocuments(tx, t.ctx, { linkId: seeded.linkId }));
    const step = await t.ctx.db.query<{ document_url: string }>(
      'select document_url from link_step where link_id = $1 and route_path = $2',
      [seeded.linkId, StepRoutes.invoice],
    );
    const docToken = step.rows[0]!.document_url.split('/s/')[1]!;
    const page = await sign.inject({ method: 'GET', url: `/s/${docToken}` });
    const { documentSha256 } = JSON.parse(
      /<script type="application\/json" id="sign-config">(.*?)<\/script>/s.exec(page.body)![1]!,
    ) as { documentSha256: string };
    const r = await sign.inject({
      method: 'POST',
      url: `/s/${docToken}/complete`,
      payload: { signerName: EVIL, method: 'type', typedSignature: EVIL, documentSha256 },
    });
    expect(r.statusCode).toBe(200);
    const row = await t.ctx.db.query<{ signer_name: string }>(
      `select signer_name from submission where link_id = $1 and signer_name is not null`,
      [seeded.linkId],
    );
    expect(row.rows[0]!.signer_name).toMatch(/^Ana/);
    expect(row.rows[0]!.signer_name).not.toMatch(CONTROLS);
  });

  it('the CLI prints names stored before the fix without their escape sequences (text and --json)', async () => {
    const { link } = await seedLink(t.ctx);
    await t.ctx.db.query('update link set first_name = $2, payor_name = $2 where id = $1', [link.id, EVIL]);
    for (const args of [
      ['links', 'list'],
      ['links', 'show', link.id],
      ['--json', 'links', 'show', link.id],
    ]) {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Ana');
      expect(r.stdout).not.toMatch(CONTROLS);
    }
  }, 120_000);
});
