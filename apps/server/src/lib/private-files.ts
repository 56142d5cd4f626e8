import fs from 'node:fs';
import path from 'node:path';

/**
 * The data dir holds the embedded database (patient names, live sign-in codes in its WAL), ID images and signed PDFs:
 * it is the server user's alone (issue 26). `makePrivate` creates `root` if needed and sets every folder under it to
 * 0700 and every file to 0600, including what an older version left there. Symbolic links are not followed (what
 * they point at is someone else's). A path owned by another user cannot be changed: that stops the boot with the
 * command that fixes it.
 */
export class DataDirError extends Error {}

export function makePrivate(root: string): void {
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const walk = (p: string) => {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    const mode = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== mode) {
      try {
        fs.chmodSync(p, mode);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return; // removed meanwhile (a temporary file)
        if (code === 'EPERM' || code === 'EACCES') {
          throw new DataDirError(
            `${p} belongs to another user (uid ${st.uid}); Paylink runs as uid ${process.getuid?.() ?? '?'}. ` +
              `Run the server as the data dir's owner, or give it to this user: chown -R "$(id -un)" ${root}`,
          );
        }
        throw err;
      }
    }
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(root);
}
