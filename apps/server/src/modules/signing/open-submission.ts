import type { Queryable } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { linkState, type LinkRow } from '../links/index.js';
import { readSubmission, type ReadOptions, type SubmissionRead } from './read-submission.js';

export type RefusalReason = 'not_found' | 'expired' | 'cancelled' | 'link_completed' | 'already_completed';

/** A document URL that cannot be used (any more); the sign server shows it as a page or a JSON error. */
export class SubmissionRefused extends AppError {
  constructor(readonly reason: RefusalReason) {
    super(reason === 'already_completed' ? 'already_completed' : `document_${reason}`, reason);
    this.name = 'SubmissionRefused';
  }
}

/**
 * The submission a token opens and its link, if the link is active, with what `opts` asks for besides (one statement:
 * readSubmission). A completed submission is refused with 'already_completed' unless allowCompleted (the page still
 * confirms it was signed). The audit row `opts.audit` names is written exactly when this returns (read-submission.ts
 * says the same in SQL).
 */
export async function resolveSubmission(
  q: Queryable,
  token: string,
  opts: ReadOptions = {},
): Promise<SubmissionRead & { link: LinkRow }> {
  const found = await readSubmission(q, token, opts);
  if (!found) throw new SubmissionRefused('not_found');
  const { submission, link } = found;
  if (!link) throw new SubmissionRefused('not_found');
  // The database's clock, which decided the audit row.
  const state = linkState(link, found.now);
  if (state === 'expired') throw new SubmissionRefused('expired');
  if (state === 'cancelled') throw new SubmissionRefused('cancelled');
  if (state === 'completed') throw new SubmissionRefused('link_completed');
  if (submission.status === 'completed' && !opts.allowCompleted) throw new SubmissionRefused('already_completed');
  if (submission.status === 'pending' && submission.link_step_id === null) throw new SubmissionRefused('not_found');
  return { ...found, link };
}
