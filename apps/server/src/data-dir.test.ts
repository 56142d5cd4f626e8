import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, stopServerProcesses } from '../test/support/server-process.js';
import { makePrivate } from './lib/private-files.js';

/**
 * Issue 26, Medium: with the usual umask 022 the embedded database's files were 0666 in folders of 0755, and another
 * local account read patient names and live sign-in codes from the WAL. The data dir is the server user's alone.
 */
const dirs: string[] = [];
afterAll(async () => {
  await stopServerProcesses();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Every entry under root (root included) whose mode lets the group or others in. */
function openToOthers(root: string): string[] {
  const open: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    if (st.mode & 0o077) open.push(`${path.relative(root, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(root);
  return open;
}

/** A data dir left by an older version: folders 0755, files 0644 (ID images, a signed PDF). */
function oldDataDir(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-perm-'));
  dirs.push(root);
  fs.chmodSync(root, 0o755);
  for (const [file, body] of [
    ['documents/ids/front.png', 'png'],
    ['documents/signed/contract.pdf', '%PDF-1.7'],
  ] as const) {
    const p = path.join(root, file);
    fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.dirname(p), 0o755);
    fs.writeFileSync(p, body, { mode: 0o644 });
    fs.chmodSync(p, 0o644);
  }
  return root;
}

describe('the data dir is private to the server’s user', () => {
  it('makePrivate makes folders 0700 and files 0600, and leaves what a symbolic link points at alone', () => {
    const root = oldDataDir();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'paylink-outside-'));
    dirs.push(outside);
    fs.writeFileSync(path.join(outside, 'shared.txt'), 'x', { mode: 0o644 });
    fs.chmodSync(path.join(outside, 'shared.txt'), 0o644);
    fs.symlinkSync(path.join(outside, 'shared.txt'), path.join(root, 'link'));
    makePrivate(root);
    expect(openToOthers(root)).toEqual([]);
    expect(fs.statSync(path.join(outside, 'shared.txt')).mode & 0o777).toBe(0o644);
  });

  it('npm start on an existing data dir: the database, documents and folders are 0600/0700', async () => {
    const root = oldDataDir();
    const s = await startServerProcess({ PAYLINK_DATA_DIR: root }, 'paylink-perm-unused-');
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect(fs.existsSync(path.join(root, 'pglite', 'PG_VERSION'))).toBe(true);
    expect(openToOthers(root)).toEqual([]);
  }, 120_000);
});
