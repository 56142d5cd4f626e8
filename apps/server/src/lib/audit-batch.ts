import type { Queryable } from '../db/client.js';
import { AUDIT_COLUMNS, auditDetailsJson, auditParams, type AuditEvent } from './audit.js';
import { AppError } from './errors.js';

/** The most rows one insert carries; more wait for the next insert (issue 17, decision 0179). */
export const AUDIT_BATCH_MAX_ROWS = 500;

/**
 * The batch failed (database gone, insert refused) or the app is closing: the row is not written, so the read it
 * records is not served. Answered 503 with the database's code: the client retries, as for a lost connection.
 */
export class AuditUnavailableError extends AppError {
  constructor(cause?: unknown) {
    super('database_unavailable', 'The service is briefly unavailable. Please try again in a moment.', { cause });
    this.name = 'AuditUnavailableError';
  }
}

/** One statement for any number of rows: a text array per column, unnested in step (one round trip, one commit). */
const BATCH_SQL = `insert into audit_event (${AUDIT_COLUMNS})
  select t.actor_type, t.actor_id, t.action, t.link_id, t.request_id, t.ip, t.details::jsonb
    from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
      as t(actor_type, actor_id, action, link_id, request_id, ip, details)`;

interface Waiting {
  params: unknown[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Durable group commit of audit rows (issue 17, decision 0179). `write(row)` resolves once the row is committed: the
 * caller answers only then, so whatever it serves always has its row. While no insert is running the row goes at once
 * (no timer); rows written while an insert runs wait and go together in the next one, up to `maxRows` per insert. A
 * failed insert rejects every row it carried (`AuditUnavailableError`), and nothing is retried behind the caller's
 * back. `close()` writes what is queued and refuses later rows: none is dropped silently.
 *
 * One per app (app.ts). `db` is asked at each insert: the app reads its database from the context per request, and so
 * does this (a test counts statements by wrapping it).
 */
export class AuditBatch {
  private queue: Waiting[] = [];
  /** An insert loop is on (set and cleared synchronously with the queue check: no row is left behind). */
  private draining = false;
  private drained: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: () => Queryable,
    private readonly maxRows = AUDIT_BATCH_MAX_ROWS,
  ) {}

  /** Resolves when the row is committed; rejects with `AuditUnavailableError` when it is not. */
  write(e: AuditEvent): Promise<void> {
    if (this.closed) return Promise.reject(new AuditUnavailableError());
    const params = [...auditParams(e), auditDetailsJson(e)];
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ params, resolve, reject });
      if (!this.draining) this.drained = this.drain();
    });
  }

  /** Rows waiting for an insert (not counting one in flight). */
  get queued(): number {
    return this.queue.length;
  }

  /** Writes every queued row (or fails it), then refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drained;
  }

  /** Inserts until the queue is empty; the first insert starts in the caller's turn. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxRows);
        const columns = Array.from({ length: 7 }, (_, i) => batch.map((w) => w.params[i] ?? null));
        try {
          await this.db().query(BATCH_SQL, columns, { prepared: true, priority: true });
        } catch (err) {
          const failure = err instanceof AuditUnavailableError ? err : new AuditUnavailableError(err);
          for (const w of batch) w.reject(failure);
          continue;
        }
        for (const w of batch) w.resolve();
      }
    } finally {
      this.draining = false;
    }
  }
}
