import type { AppContext } from '../../context.js';
import { writeAudit, type AuditEvent } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { findLink } from '../links/index.js';
import { findSubmission, listLinkSteps, listLinkSubmissions, listSubmissionFiles } from './submission-queries.js';

type Actor = Pick<AuditEvent, 'actorType' | 'actorId' | 'requestId' | 'ip'>;

export interface LinkDocument {
  submissionId: string;
  kind: string;
  status: 'pending' | 'completed';
  linkStepId: number | null;
  routePath: string | null;
  signerName: string | null;
  signatureMethod: string | null;
  completedAt: string | null;
  ip: string | null;
  originalSha256: string | null;
  signedSha256: string | null;
  files: { id: string; side: string; mime: string; originalMime: string; size: number; sha256: string }[];
}

/** Staff: every document of a link (pending and completed), with hashes; audited as a read of patient documents. */
export async function listLinkDocuments(
  ctx: Pick<AppContext, 'db'>,
  opts: { linkId: string; actor: Actor },
): Promise<LinkDocument[]> {
  return ctx.db.transaction(async (tx) => {
    const link = await findLink(tx, opts.linkId);
    if (!link) throw notFound('No link with this id.');
    const subs = await listLinkSubmissions(tx, link.id);
    const routeOf = new Map((await listLinkSteps(tx, link.id)).map((r) => [r.id, r.route_path]));
    const out: LinkDocument[] = [];
    for (const s of subs) {
      // Unsigned documents of a step list that was rebuilt are gone from the flow: not worth listing.
      if (s.status === 'pending' && s.link_step_id === null) continue;
      const files = await listSubmissionFiles(tx, s.id);
      out.push({
        submissionId: s.id,
        kind: s.kind,
        status: s.status,
        linkStepId: s.link_step_id,
        routePath: s.link_step_id === null ? null : (routeOf.get(s.link_step_id) ?? null),
        signerName: s.signer_name,
        signatureMethod: s.signature_method,
        completedAt: s.completed_at ? new Date(s.completed_at).toISOString() : null,
        ip: s.ip,
        originalSha256: s.original_sha256,
        signedSha256: s.signed_sha256,
        files: files.map((f) => ({
          id: f.id,
          side: f.side,
          mime: f.mime,
          originalMime: f.original_mime,
          size: f.size_bytes,
          sha256: f.content_sha256,
        })),
      });
    }
    await writeAudit(tx, {
      ...opts.actor,
      action: 'documents.listed',
      linkId: link.id,
      details: { count: out.length },
    });
    return out;
  });
}

/** Staff: the signed PDF of a completed submission; audited as a download of a patient document. */
export async function readSignedDocument(
  ctx: Pick<AppContext, 'db' | 'providers'>,
  opts: { submissionId: string; actor: Actor },
): Promise<{ fileName: string; bytes: Buffer }> {
  return ctx.db.transaction(async (tx) => {
    const s = await findSubmission(tx, opts.submissionId);
    if (!s) throw notFound('No document with this id.');
    if (s.status !== 'completed' || !s.signed_storage_key) {
      throw notFound('This document is not signed yet: there is no signed PDF.');
    }
    const bytes = await ctx.providers.storage.get(s.signed_storage_key);
    if (!bytes) throw new Error(`Signed PDF missing from storage: ${s.signed_storage_key}`);
    await writeAudit(tx, {
      ...opts.actor,
      action: 'document.downloaded',
      linkId: s.link_id,
      details: { submissionId: s.id, kind: s.kind, signedSha256: s.signed_sha256 },
    });
    return { fileName: `${s.kind}-${s.link_id}-${s.id.slice(0, 8)}.pdf`, bytes };
  });
}
