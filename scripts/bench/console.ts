/**
 * The console at 10,000 links (issue 13: "paged; fast with 10,000 links"): a fresh embedded database with N links
 * created over the last 30 days (6 steps each, half sent, a third opened, a tenth paid, ~4 audit rows each), then the
 * calls the console makes, timed through the real app (median of 5, after one warm-up): the board's first page, a
 * search by name, a filter by state and step, the live-update poll, and the funnel for 30 days.
 */
import { createTestApp } from '../../apps/server/test/support/context.js';
import { staffToken } from '../../apps/server/src/seed/seed-staff.js';

export interface ConsoleFigure {
  links: number;
  seedMs: number;
  calls: { name: string; url: string; medianMs: number; status: number }[];
}

export async function measureConsole(links = 10_000): Promise<ConsoleFigure> {
  const t = await createTestApp();
  try {
    const db = t.ctx.db;
    const t0 = performance.now();
    await db.query(`
      insert into link (id, first_name, last_name, address, city, state, zip_code, phone, email, procedure_description,
        sign_in_method, language, expires_at, created_at)
      select 'bench' || lpad(i::text, 20, '0'), 'Pat' || i, 'Lopez' || (i % 97), '1 Main St', 'Austin', 'Texas', '73301',
        '512555' || lpad((i % 10000)::text, 4, '0'), 'p' || i || '@example.com', 'Consultation', 'sms', 'en',
        now() + interval '7 days', now() - (i % 30) * interval '1 day' - (i % 1440) * interval '1 minute'
      from generate_series(1, ${links}) i`);
    await db.query(`
      insert into link_step (link_id, position, route_path, status_id, completed_at)
      select l.id, s.pos, s.route, case when s.pos <= (abs(hashtext(l.id)) % 7) then 4 else 1 end,
        case when s.pos <= (abs(hashtext(l.id)) % 7) then l.created_at + s.pos * interval '1 hour' end
      from link l cross join (values (1, '/patientinfo'), (2, '/patientinvoicedetail'), (3, '/patientiddocs'),
        (4, '/patientcontract'), (5, '/paymentauthorization'), (6, '/confirmation')) s(pos, route)`);
    await db.query(`
      insert into audit_event (at, actor_type, action, link_id)
      select l.created_at, 'staff', 'link.created', l.id from link l
      union all select l.created_at + interval '1 minute', 'staff', 'link.sent', l.id from link l
        where abs(hashtext(l.id)) % 2 = 0
      union all select l.created_at + interval '2 hours', 'link', 'patient.phone_lookup', l.id from link l
        where abs(hashtext(l.id)) % 3 = 0
      union all select l.created_at + interval '3 hours', 'link', 'step.completed', l.id from link l
        where abs(hashtext(l.id)) % 3 = 0`);
    await db.query(`
      insert into payment (link_id, payment_type_id, payment_source_id, amount_cents)
      select id, 1, 1, 50000 from link where abs(hashtext(id)) % 10 = 0`);
    await db.query('analyze');
    const seedMs = Math.round(performance.now() - t0);

    const headers = {
      authorization: `Bearer ${await staffToken(db, { email: 'bench-admin@example.com', role: 'admin' })}`,
    };
    const since = new Date(Date.now() - 60_000).toISOString();
    const calls = [
      { name: 'board, first page', url: '/api/admin/board?limit=25' },
      { name: 'board, search by name', url: '/api/admin/board?q=Pat123&limit=25' },
      { name: 'board, state + step filter', url: '/api/admin/board?status=active&step=contract&limit=25' },
      { name: 'board, page 200', url: '/api/admin/board?limit=25&offset=5000' },
      { name: 'board, live-update poll', url: `/api/admin/board/changes?since=${encodeURIComponent(since)}` },
      { name: 'funnel, 30 days', url: '/api/admin/funnel' },
    ];
    const out: ConsoleFigure['calls'] = [];
    for (const c of calls) {
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < 6; i++) {
        const s = performance.now();
        const r = await t.app.inject({ method: 'GET', url: c.url, headers });
        status = r.statusCode;
        if (i > 0) times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      out.push({ ...c, medianMs: Math.round(times[Math.floor(times.length / 2)]!), status });
    }
    return { links, seedMs, calls: out };
  } finally {
    await t.close();
  }
}
