import { Readable } from 'node:stream';
import type { Db, Transaction } from './client.js';

/**
 * A download written while it is read (issue 30; decision 0228): `produce` runs inside one REPEATABLE READ
 * transaction (every statement, both cursors of a report, sees the same snapshot) and writes text chunks; `write`
 * waits while the reader is behind, so the server holds about one batch and the stream's buffer, whatever the size.
 *
 * The promise answers the stream once `produce` has written its first chunk (or ended): do everything that can fail
 * with an ordinary error answer (bad filters, the database down, the audit row) before the first write. An error after
 * it destroys the stream: the HTTP response is cut without its last chunk, so the client reports a failed download
 * instead of saving a short file as if it were whole. When the reader goes away (download cancelled), `write` throws
 * `ReaderGone`, which ends `produce` and commits what it wrote (the audit row: the rows sent were read).
 *
 * On PGlite the transaction holds the one connection, so every other statement waits for the download: the embedded
 * database's stream buffers up to `pgliteBuffer` bytes (a practice's whole export, usually) so a slow client keeps the
 * database only for what does not fit.
 */
export async function snapshotStream(
  db: Db,
  produce: (tx: Transaction, write: (chunk: string) => Promise<void>) => Promise<void>,
  opts: {
    buffer?: number;
    pgliteBuffer?: number;
    /** After a failure once bytes were sent (the transaction rolled back): record what went out, in its own write. */
    onCut?: (err: unknown) => Promise<void>;
  } = {},
): Promise<Readable> {
  let wake: (() => void) | null = null;
  const resume = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const stream = new Readable({
    highWaterMark: db.kind === 'pglite' ? (opts.pgliteBuffer ?? 8 << 20) : (opts.buffer ?? 256 << 10),
    read: resume,
    destroy(err, cb) {
      resume();
      cb(err);
    },
  });
  let started: (s: Readable) => void;
  let failed: (err: unknown) => void;
  const ready = new Promise<Readable>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  let first = true;
  const write = async (chunk: string) => {
    if (stream.destroyed) throw new ReaderGone();
    // An empty push would signal nothing and stall a paused reader; the first write still starts the answer.
    const more = chunk === '' || stream.push(chunk);
    if (first) {
      first = false;
      started(stream);
    }
    if (!more) await new Promise<void>((resolve) => (wake = resolve));
    if (stream.destroyed) throw new ReaderGone();
  };
  db.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read');
    try {
      await produce(tx, write);
    } catch (err) {
      if (!(err instanceof ReaderGone)) throw err;
    }
  }).then(
    () => {
      if (first) started(stream);
      if (!stream.destroyed) stream.push(null);
    },
    (err: unknown) => {
      if (first) return failed(err);
      stream.destroy(err instanceof Error ? err : new Error(String(err)));
      opts.onCut?.(err).catch(() => {
        /* the database is what failed: the server log has the stream's error */
      });
    },
  );
  return ready;
}

/** The reader went away (the client cancelled the download): stop reading, keep what was written. */
export class ReaderGone extends Error {
  constructor() {
    super('The download was cancelled.');
    this.name = 'ReaderGone';
  }
}

let cursors = 0;

/**
 * A server-side cursor in the snapshot: the query runs once and its rows come `batch` at a time (a keyset page would
 * run the query, sort included, again per page). Works on PGlite and on PostgreSQL (the transaction's one connection).
 */
export async function* cursorBatches<T>(
  tx: Transaction,
  sql: string,
  params: unknown[] = [],
  batch = 1000,
): AsyncGenerator<T[]> {
  const name = `paylink_export_${++cursors}`;
  await tx.query(`declare ${name} no scroll cursor for ${sql}`, params);
  for (;;) {
    const r = await tx.query<T>(`fetch forward ${batch} from ${name}`);
    if (r.rows.length > 0) yield r.rows;
    if (r.rows.length < batch) break;
  }
  await tx.query(`close ${name}`);
}
