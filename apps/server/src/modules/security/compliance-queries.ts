import type { TamperCheck } from '@paylink/shared';
import type { Queryable } from '../../db/client.js';

export interface CspReportInput {
  documentUri: string;
  blockedUri: string;
  effectiveDirective: string;
  sourceFile: string;
  lineNumber: number | null;
  sample: string;
  userAgent: string;
}

/** The newest reports kept: enough to investigate, bounded so a noisy or hostile client cannot fill the disk. */
const CSP_REPORTS_KEPT = 5000;

export async function storeCspReports(db: Queryable, reports: CspReportInput[]): Promise<void> {
  for (const r of reports) {
    await db.query(
      `insert into csp_report (document_uri, blocked_uri, effective_directive, source_file, line_number, sample, user_agent)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [r.documentUri, r.blockedUri, r.effectiveDirective, r.sourceFile, r.lineNumber, r.sample, r.userAgent],
    );
  }
  if (reports.length) {
    await db.query(
      `delete from csp_report where id <= (select id from csp_report order by id desc offset $1 limit 1)`,
      [CSP_REPORTS_KEPT],
    );
  }
}

export async function listCspReports(db: Queryable, limit: number) {
  const rows = await db.query<{
    id: string;
    received_at: Date;
    document_uri: string;
    blocked_uri: string;
    effective_directive: string;
    source_file: string;
    line_number: number | null;
    sample: string;
  }>(
    `select id::text, received_at, document_uri, blocked_uri, effective_directive, source_file, line_number, sample
      from csp_report order by id desc limit $1`,
    [limit],
  );
  const total = await db.query<{ n: string }>('select count(*)::text as n from csp_report');
  return {
    total: Number(total.rows[0]!.n),
    reports: rows.rows.map((r) => ({
      id: r.id,
      receivedAt: r.received_at.toISOString(),
      documentUri: r.document_uri,
      blockedUri: r.blocked_uri,
      effectiveDirective: r.effective_directive,
      sourceFile: r.source_file,
      lineNumber: r.line_number,
      sample: r.sample,
    })),
  };
}

export async function listTamperChecks(db: Queryable, limit: number): Promise<TamperCheck[]> {
  const rows = await db.query<{
    id: string;
    ran_at: Date;
    trigger: 'schedule' | 'staff';
    ok: boolean;
    page_url: string;
    findings: TamperCheck['findings'];
  }>('select id::text, ran_at, trigger, ok, page_url, findings from tamper_check order by id desc limit $1', [limit]);
  return rows.rows.map((r) => ({
    id: r.id,
    ranAt: r.ran_at.toISOString(),
    trigger: r.trigger,
    ok: r.ok,
    pageUrl: r.page_url,
    findings: r.findings,
  }));
}
