import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { exposureWarning, providerLines } from './startup-report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('binding and the start log (issue 11, findings 1 and 7)', () => {
  it('sandbox mode listens on 127.0.0.1 unless HOST is set; production on 0.0.0.0', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '' }).HOST).toBe('127.0.0.1');
  });

  it('warns loudly when sandbox providers are on and the host is not loopback', () => {
    expect(exposureWarning(loadConfig({}))).toEqual([]);
    const w = exposureWarning(loadConfig({ HOST: '0.0.0.0' })).join('\n');
    expect(w).toMatch(/WARNING: sandbox providers \(sms, email, captcha, gateway\) are on/);
    expect(
      exposureWarning(loadConfig({ HOST: '0.0.0.0', SMTP_HOST: 'smtp.example.com', PAYLINK_MODE: 'sandbox' })).join(
        '\n',
      ),
    ).toMatch(/\(sms, captcha, gateway\)/);
  });

  it('says which providers are real and which are sandbox', () => {
    const lines = providerLines(
      loadConfig({ SMTP_HOST: 'smtp.example.com', SMTP_PORT: '2525', PAYLINK_MODE: 'sandbox' }),
    ).join('\n');
    expect(lines).toMatch(/SMS\s+SANDBOX/);
    expect(lines).toMatch(/E-mail\s+real: SMTP smtp\.example\.com:2525/);
    expect(lines).toMatch(/Card gateway\s+SANDBOX/);
  });

  it('npm start, npm run serve and the CLI load .env when it exists', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toMatch(/npm run serve/);
    // serve starts the entry server-entry.mjs names (the compiled server or the sources), with .env loaded (and the
    // process's malloc arenas set before it starts, decision 0236).
    expect(pkg.scripts.serve).toMatch(
      /^MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-2\} node --env-file-if-exists=\.env \$\(node scripts\/server-entry\.mjs\)$/,
    );
    const entry = execFileSync(process.execPath, ['scripts/server-entry.mjs'], { cwd: root, encoding: 'utf8' });
    expect(entry.trim()).toMatch(/ apps\/server\/(src\/main\.ts|dist\/main\.js)$/);
    // The heap limit that keeps the memory under load bounded (decision 0183).
    expect(entry).toMatch(/(^| )--max-old-space-size=1024 /);
    expect(entry).toMatch(/(^| )--max-semi-space-size=32 /);
    expect(pkg.scripts.paylink).toMatch(/node --env-file-if-exists=\.env .*cli\/main\.ts/);
  });
});
