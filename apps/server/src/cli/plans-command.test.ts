import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToken } from '../seed/seed-staff.js';
import { createTestApp } from '../../test/support/context.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let t: Awaited<ReturnType<typeof createTestApp>>;
let baseUrl: string;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  token = await staffToken(t.ctx.db, { email: 'cli-plans@example.com', role: 'admin' });
});
afterAll(async () => t.close());

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

describe('paylink plans run', () => {
  it('runs one scheduler pass at --now and prints what it did', async () => {
    const json = await cli(['plans', 'run', '--now', '2099-02-01T15:00:00Z', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ now: '2099-02-01T15:00:00.000Z', notified: 0, paid: 0 });
    const human = await cli(['plans', 'run', '--now', '2099-02-01T10:00:00-05:00']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('Plan scheduler at 2099-02-01T15:00:00.000Z');
    expect(human.stdout).toContain('PLANS COMPLETED');
  });

  it('refuses a time without a zone', async () => {
    const r = await cli(['plans', 'run', '--now', '2099-02-01']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--now must be an ISO time');
  });
});
