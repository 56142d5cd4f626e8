import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');

/** Every variable of the config schema, read from its source (the schema object is not exported). */
function configVariables(): string[] {
  const src = fs.readFileSync(path.join(here, 'config.ts'), 'utf8');
  const body = src.slice(src.indexOf('const envSchema = z.object({'), src.indexOf('\n});', src.indexOf('envSchema')));
  return [...body.matchAll(/^\s{2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!);
}

describe('.env.example', () => {
  const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');

  it('documents every variable the server reads', () => {
    const vars = configVariables();
    expect(vars.length).toBeGreaterThan(40);
    const missing = vars.filter((v) => !new RegExp(`^#?\\s*${v}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });

  it('is a configuration the server accepts as it stands', () => {
    const env: Record<string, string> = {};
    for (const line of example.split('\n')) {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      if (m) env[m[1]!] = m[2]!;
    }
    expect(() => loadConfig(env)).not.toThrow();
    expect(loadConfig(env).mode).toBe('sandbox');
  });
});
