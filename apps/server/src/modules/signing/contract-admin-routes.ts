import { consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { auditContext } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { ROLES, requireStaff } from '../../http/require-staff.js';
import { errorResponses } from '../../http/route-support.js';
import { route } from '../../http/route.js';
import {
  cleanFileName,
  cleanUploadedContract,
  contractInEffect,
  ContractRefused,
  contractStatuses,
  readContract,
  removePracticeContract,
  setPracticeContract,
} from './contracts.js';

/**
 * The practice's contract per language in the console's Settings (issue 16, item 3; decision 0168): admins upload a PDF
 * for English and for Spanish, see which contract new links get, open it, and remove an upload. Every change is audited.
 */
export async function contractAdminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const maxMb = ctx.config.UPLOAD_MAX_MB;
  const maxBytes = maxMb * 1024 * 1024;
  const maxPages = ctx.config.CONTRACT_MAX_PAGES;
  await app.register(async (scope) => {
    // The upload is the PDF itself as the body (no multipart): the console sends the chosen File as is.
    scope.addContentTypeParser(
      ['application/pdf', 'application/octet-stream'],
      { parseAs: 'buffer', bodyLimit: maxBytes },
      (_request, body, done) => done(null, body),
    );
    const admin = requireStaff(ctx, { roles: ROLES.admin });
    const tags = ['console'];
    const security: { [k: string]: string[] }[] = [{ bearer: [] }, { staffCookie: [] }];
    const statuses = async () => ({ contracts: await contractStatuses(ctx.db, ctx.config), maxMb, maxPages });

    route(
      scope,
      consoleRoutes.contracts,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'The contract new links get, per language: console upload, server file or sample (admins only)',
          security,
          response: errorResponses(401, 403),
        },
      },
      statuses,
    );

    route(
      scope,
      consoleRoutes.contractPdf,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'The contract PDF a new link’s reader of this language gets (admins only)',
          description: 'download=1 answers it as an attachment.',
          security,
          response: errorResponses(400, 401, 403),
        },
      },
      async (request, reply) => {
        const { lang } = request.params;
        const contract = await readContract(ctx.providers.storage, await contractInEffect(ctx.db, ctx.config, lang));
        const disposition = request.query.download === '1' ? 'attachment' : 'inline';
        return reply
          .type('application/pdf')
          .header('content-disposition', `${disposition}; filename="contract-${lang}.pdf"`)
          .header('cache-control', 'no-store')
          .send(Buffer.from(contract.bytes));
      },
    );

    route(
      scope,
      consoleRoutes.uploadContract,
      {
        preHandler: admin,
        bodyLimit: maxBytes,
        schema: {
          tags,
          summary: 'Upload the practice’s contract for one language (admins only; the PDF as the body; audited)',
          description:
            `Content-Type application/pdf; at most ${maxMb} MB (UPLOAD_MAX_MB) and ${maxPages} pages ` +
            '(CONTRACT_MAX_PAGES); a readable PDF with at least one page. What could run or open on a reader’s ' +
            'device (scripts, actions, attachments, media, form fields) is taken off before it is stored; `removed` ' +
            'lists it. New links get it; links already prepared keep the contract they were given.',
          security,
          response: errorResponses(400, 401, 403, 413, 415),
        },
      },
      async (request) => {
        const { lang } = request.params;
        if (!Buffer.isBuffer(request.body)) {
          throw new ContractRefused('not_pdf', 'Send the contract as the body, Content-Type application/pdf.');
        }
        const clean = await cleanUploadedContract(new Uint8Array(request.body), { maxMb, maxPages });
        await ctx.db.transaction((tx) =>
          setPracticeContract(tx, ctx.providers.storage, {
            lang,
            bytes: clean.bytes,
            fileName: cleanFileName(request.query.fileName, lang),
            pageCount: clean.pageCount,
            removed: clean.removed,
            userId: request.staff!.userId,
            actor: auditContext(request),
          }),
        );
        return { ...(await statuses()), removed: clean.removed };
      },
    );

    route(
      scope,
      consoleRoutes.removeContract,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Remove the uploaded contract of one language: back to the server’s file or the sample (audited)',
          security,
          response: errorResponses(400, 401, 403, 404),
        },
      },
      async (request) => {
        const removed = await ctx.db.transaction((tx) =>
          removePracticeContract(tx, { lang: request.params.lang, actor: auditContext(request) }),
        );
        if (!removed) throw new AppError('no_upload', 'No contract was uploaded for this language.');
        return statuses();
      },
    );
  });
}
