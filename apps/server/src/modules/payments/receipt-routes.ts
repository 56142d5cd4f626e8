import { consoleRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { requireStaff } from '../../http/require-staff.js';
import { route } from '../../http/route.js';
import { errorResponses } from '../../http/route-support.js';
import { auditContext } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import { resendReceipt } from './resend-receipt.js';

/** The practice's details from the environment, for a practice that saved none in the console (receipts). */
export const practiceFromConfig = (ctx: AppContext) => ({
  name: ctx.config.PRACTICE_NAME,
  senderName: ctx.config.senderName,
  supportPhone: ctx.config.PRACTICE_PHONE,
  supportEmail: ctx.config.PRACTICE_EMAIL,
  logoUrl: ctx.config.PRACTICE_LOGO_URL ?? null,
});

/** POST /api/admin/links/:id/receipt: every staff role (coordinators, billing, admins; docs/console.md). */
export async function receiptRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  route(
    app,
    consoleRoutes.resendReceipt,
    {
      preHandler: requireStaff(ctx),
      schema: {
        tags: ['money'],
        summary: 'Send a paid link’s receipt again (by the first receipt’s rules)',
        description:
          'E-mail to the payor (payor paid) or the patient’s address on file, else SMS to the patient’s phone unless ' +
          'it opted out. Audited (payment.receipt_resent) and queued in the outbox. One resend per link in ten ' +
          'minutes (429 with retryAfterSeconds); 409 not_paid before payment, 409 no_receipt_address with nowhere to send.',
        security: [{ bearer: [] }],
        response: errorResponses(401, 403, 404, 409, 429),
      },
    },
    async (request, reply) => {
      const result = await resendReceipt({
        db: ctx.db,
        actor: auditContext(request),
        linkId: request.params.id,
        practiceFallback: practiceFromConfig(ctx),
        timeZone: await practiceTimeZone(ctx.db, ctx.config),
        publicUrl: ctx.config.publicUrl,
        plans: ctx.linkPlans,
      });
      return reply.status(201).send(result);
    },
  );
}
