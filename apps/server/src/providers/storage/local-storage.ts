import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertStorageKey, type DocumentStorage } from './types.js';

/** Files under `<data dir>/documents`, written to a temporary name first so a crash never leaves half a file. */
export function localStorage(root: string): DocumentStorage {
  const file = (key: string) => {
    assertStorageKey(key);
    return path.join(root, ...key.split('/'));
  };
  return {
    driver: 'local',
    async put(key, bytes) {
      const target = file(key);
      await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await fs.writeFile(tmp, bytes, { mode: 0o600 });
      await fs.rename(tmp, target);
    },
    async get(key) {
      try {
        return await fs.readFile(file(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await fs.rm(file(key), { force: true });
    },
  };
}
