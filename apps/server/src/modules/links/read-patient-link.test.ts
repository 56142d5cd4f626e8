import { continueCheckSchema, patientInfoSchema } from '@paylink/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../db/client.js';
import { seedLink } from '../../seed/sample-links.js';
import { apiHeaders, createTestApp, mintPatientToken } from '../../../test/support/context.js';
import { USABLE_LINK_SQL, linkState, type LinkRow } from './link-queries.js';

let t: Awaited<ReturnType<typeof createTestApp>>;
let realDb: Db;
/** Statements sent to the database since the last reset (a transaction counts its BEGIN and COMMIT). */
let trips = 0;
/** Of those, the audit batch's inserts (decision 0179). */
let auditInserts = 0;
const reads = () => trips - auditInserts;
const reset = () => {
  trips = 0;
  auditInserts = 0;
};

beforeAll(async () => {
  t = await createTestApp();
  realDb = t.ctx.db;
  const counted = (q: Queryable): Queryable => ({
    query: (sql, params, options) => {
      trips++;
      if (/^insert into audit_event\b/.test(sql)) auditInserts++;
      return q.query(sql, params, options);
    },
  });
  // The routes (and the app's audit batch) read ctx.db per request: count what they send through the real database.
  t.ctx.db = {
    kind: realDb.kind,
    ...counted(realDb),
    transaction: (fn) => {
      trips += 2;
      return realDb.transaction((tx) => fn({ ...counted(tx), exec: (sql) => tx.exec(sql) }));
    },
    exec: (sql) => realDb.exec(sql),
    close: () => realDb.close(),
  } as Db;
});
let appClosed = false;
afterAll(async () => {
  t.ctx.db = realDb;
  if (appClosed) await realDb.close();
  else await t.close();
});

async function newLink(withSteps = false) {
  const { link } = await seedLink(t.ctx, {});
  const token = await mintPatientToken(t.ctx, link.id);
  const headers = apiHeaders(t.ctx, token);
  if (withSteps) {
    const body = { linkId: link.id, paymentTypeId: 1, paymentSourceId: 1, paymentAmount: 500 };
    const r = await t.app.inject({ method: 'POST', url: '/api/linkpaymenthistory', headers, payload: body });
    expect(r.statusCode, r.body).toBeLessThan(300);
    const q = new URLSearchParams({ linkId: link.id, paymentTypeId: '1', paymentSourceId: '1', paymentAmount: '500' });
    const s = await t.app.inject({ method: 'POST', url: `/api/linksteps/script?${q}`, headers, payload: {} });
    expect(s.statusCode, s.body).toBeLessThan(300);
  }
  return { id: link.id, token, headers };
}

interface AuditRow {
  actor_type: string;
  actor_id: string | null;
  request_id: string | null;
  ip: string | null;
  details: Record<string, unknown>;
}
async function audits(linkId: string, action: string): Promise<AuditRow[]> {
  const r = await realDb.query<AuditRow>(
    'select actor_type, actor_id, request_id, ip, details from audit_event where link_id = $1 and action = $2',
    [linkId, action],
  );
  return r.rows;
}
async function sessionOf(linkId: string): Promise<string> {
  const r = await realDb.query<{ id: string }>('select id from patient_session where link_id = $1', [linkId]);
  return r.rows[0]!.id;
}

describe('patient reads: one read statement, audit rows committed in groups (issue 17, decision 0179)', () => {
  it('GET patientinfo sends one read statement, and its audit row is committed when the answer arrives', async () => {
    const l = await newLink();
    reset();
    const r = await t.app.inject({ url: `/api/patients/patientinfo/${l.id}`, headers: l.headers });
    expect(r.statusCode, r.body).toBe(200);
    expect(reads()).toBe(1);
    expect(auditInserts).toBe(1);
    expect(r.json()).toMatchObject({ firstName: expect.any(String), paymentAmount: null });
    // The answer is the shared contract exactly (its serializer does not re-check it per answer: decision 0182).
    expect(patientInfoSchema.strict().parse(r.json())).toEqual(r.json());
    // The row as the one-statement read wrote it: the patient's session acting, this request, no details.
    const rows = await audits(l.id, 'patient.info_read');
    expect(rows).toEqual([
      {
        actor_type: 'link',
        actor_id: await sessionOf(l.id),
        request_id: expect.any(String),
        ip: '127.0.0.1',
        details: {},
      },
    ]);
  });

  it('GET check sends one read statement when no payment attempt awaits reconciliation', async () => {
    const l = await newLink(true);
    reset();
    const r = await t.app.inject({ url: `/api/linksteps/script/${l.id}/check`, headers: l.headers });
    expect(r.statusCode, r.body).toBe(200);
    expect(reads()).toBe(1);
    expect(auditInserts).toBe(1);
    expect(r.json()).toMatchObject({ paymentAmount: 500, currentRoutePath: expect.any(String) });
    expect(r.json().linkStepScript.length).toBeGreaterThan(0);
    expect(continueCheckSchema.strict().parse(r.json())).toEqual(r.json());
    expect(await audits(l.id, 'steps.continue_check')).toHaveLength(1);
  });

  it('concurrent reads each get their row, in fewer inserts than reads', async () => {
    const l = await newLink(true);
    const n = 40;
    reset();
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        t.app.inject({
          url: i % 2 ? `/api/patients/patientinfo/${l.id}` : `/api/linksteps/script/${l.id}/check`,
          headers: l.headers,
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(n).fill(200));
    expect(reads()).toBe(n);
    expect(auditInserts).toBeGreaterThan(0);
    expect(auditInserts).toBeLessThan(n);
    const rows = [...(await audits(l.id, 'patient.info_read')), ...(await audits(l.id, 'steps.continue_check'))];
    expect(rows).toHaveLength(n);
    expect(new Set(rows.map((row) => row.request_id)).size).toBe(n);
  });

  it('a failed audit insert fails the read with 503 and serves no patient data', async () => {
    const l = await newLink(true);
    // The test's own database refuses this link's read rows (a trigger), as a broken audit table would.
    await realDb.exec(`create function refuse_read_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit_event refused for the test'; end $$;
      create trigger refuse_read_audit before insert on audit_event for each row
        when (new.link_id = '${l.id}') execute function refuse_read_audit();`);
    try {
      for (const url of [`/api/patients/patientinfo/${l.id}`, `/api/linksteps/script/${l.id}/check`]) {
        const r = await t.app.inject({ url, headers: l.headers });
        expect(r.statusCode, r.body).toBe(503);
        expect(r.json()).toEqual({ error: 'database_unavailable', message: expect.stringMatching(/unavailable/) });
        expect(r.headers['retry-after']).toBe('2');
        expect(r.body).not.toMatch(/firstName|linkStepScript|paymentAmount/);
      }
    } finally {
      await realDb.exec('drop trigger refuse_read_audit on audit_event; drop function refuse_read_audit();');
    }
    expect(await audits(l.id, 'patient.info_read')).toHaveLength(0);
    // The batch is not stuck: the next read is served and audited.
    const r = await t.app.inject({ url: `/api/patients/patientinfo/${l.id}`, headers: l.headers });
    expect(r.statusCode, r.body).toBe(200);
    expect(await audits(l.id, 'patient.info_read')).toHaveLength(1);
  });

  it('GET check without a step list answers 404 and writes no audit row', async () => {
    const l = await newLink();
    const r = await t.app.inject({ url: `/api/linksteps/script/${l.id}/check`, headers: l.headers });
    expect(r.statusCode).toBe(404);
    expect(await audits(l.id, 'steps.continue_check')).toHaveLength(0);
  });

  it('GET notoken sends one statement and audits once per hour (in that statement: no batch)', async () => {
    const l = await newLink();
    reset();
    const r = await t.app.inject({ url: `/api/patients/${l.id}/notoken?c=p`, headers: apiHeaders(t.ctx) });
    expect(r.statusCode).toBe(200);
    expect(trips).toBe(1);
    expect(auditInserts).toBe(0);
    await t.app.inject({ url: `/api/patients/${l.id}/notoken?c=p`, headers: apiHeaders(t.ctx) });
    expect(await audits(l.id, 'patient.phone_lookup')).toHaveLength(1);
  });

  it('a revoked session is refused 401 and leaves no audit row', async () => {
    const l = await newLink();
    await realDb.query('update patient_session set revoked_at = now() where link_id = $1', [l.id]);
    reset();
    const r = await t.app.inject({ url: `/api/patients/patientinfo/${l.id}`, headers: l.headers });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toMatch(/session has ended/);
    expect(auditInserts).toBe(0);
    expect(await audits(l.id, 'patient.info_read')).toHaveLength(0);
  });

  it('another link is 403 for a live session and 401 for a revoked one', async () => {
    const a = await newLink();
    const b = await newLink();
    const r = await t.app.inject({ url: `/api/patients/patientinfo/${b.id}`, headers: a.headers });
    expect(r.statusCode).toBe(403);
    await realDb.query('update patient_session set revoked_at = now() where link_id = $1', [a.id]);
    const r2 = await t.app.inject({ url: `/api/linksteps/script/${b.id}/check`, headers: a.headers });
    expect(r2.statusCode).toBe(401);
    expect(await audits(b.id, 'patient.info_read')).toHaveLength(0);
  });

  it.each([
    ['expired', `update link set expires_at = now() - interval '1 minute' where id = $1`, 'Link Expired.'],
    [
      'cancelled',
      `update link set status = 'cancelled', cancelled_at = now() where id = $1`,
      'Link has been Cancelled.',
    ],
    ['completed', `update link set status = 'completed', completed_at = now() where id = $1`, 'Process has completed.'],
  ])('a %s link answers its 401 text and writes no audit row', async (_state, sql, text) => {
    const l = await newLink(true);
    await realDb.query(sql, [l.id]);
    reset();
    for (const url of [`/api/patients/patientinfo/${l.id}`, `/api/linksteps/script/${l.id}/check`]) {
      const r = await t.app.inject({ url, headers: l.headers });
      expect(r.statusCode).toBe(401);
      expect(r.body).toBe(text);
    }
    expect(auditInserts).toBe(0);
    expect(await audits(l.id, 'patient.info_read')).toHaveLength(0);
    expect(await audits(l.id, 'steps.continue_check')).toHaveLength(0);
  });

  it('the SQL usability rule agrees with linkState on every state', async () => {
    for (const status of ['active', 'cancelled', 'completed'] as const) {
      for (const offset of ['-1 minute', '1 minute']) {
        const r = await realDb.query<{ usable: boolean; expires_at: Date; now: Date }>(
          `select ${USABLE_LINK_SQL('l')} as usable, l.expires_at, now() as now
             from (select $1::text as status, now() + $2::interval as expires_at) l`,
          [status, offset],
        );
        const row = r.rows[0]!;
        const js = linkState(
          { status, expires_at: row.expires_at } as Pick<LinkRow, 'status' | 'expires_at'>,
          new Date(row.now),
        );
        expect(row.usable, `${status} ${offset}`).toBe(js === 'active');
      }
    }
  });

  // Last: it closes the app.
  it('closing the app writes the rows already queued and refuses later ones (503), dropping none', async () => {
    const l = await newLink();
    const row = { actorType: 'link' as const, actorId: 'closing', action: 'patient.info_read', linkId: l.id };
    const queued = [t.app.auditBatch.write(row), t.app.auditBatch.write(row)];
    appClosed = true;
    await t.app.close();
    await expect(Promise.all(queued)).resolves.toBeDefined();
    await expect(t.app.auditBatch.write(row)).rejects.toMatchObject({ code: 'database_unavailable' });
    expect(await audits(l.id, 'patient.info_read')).toHaveLength(2);
  });
});
