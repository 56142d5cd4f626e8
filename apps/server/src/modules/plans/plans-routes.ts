import { patientRoutes } from '@paylink/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { assertLinkAccess, claimForLink, requirePatient, requirePatientClaim } from '../../http/guards.js';
import { PATIENT_SECURITY, errorResponses } from '../../http/route-support.js';
import { route } from '../../http/route.js';
import { auditContext } from '../../lib/audit.js';
import { practiceTimeZone } from '../app-config/index.js';
import { acceptPlanAgreement, showPatientPlan } from './patient-plan.js';
import { confirmCardUpdate, startCardUpdate } from './update-plan-card.js';

/** The patient's side of a payment plan (issue 28; not in the spec: decision 0207). */
export async function patientPlanRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const patient = requirePatient(ctx);
  // The plan read checks the session row in its first statement (issue 30).
  const patientClaim = requirePatientClaim(ctx);
  const tags = ['plan'];

  route(
    app,
    patientRoutes.plan,
    {
      preHandler: patientClaim,
      schema: {
        tags,
        summary: "The signed-in link's payment plan: its schedule, the card kept for it and the agreement's state",
        description:
          'Before the deposit (`projected: true`) the balance is the total less the amount chosen on the patient ' +
          'information page, split by the plan; after it, the stored installments with their statuses and the card ' +
          'the deposit stored (brand and last four). 404 when the link has no plan. Not in the spec (decision 0207).',
        security: PATIENT_SECURITY,
        response: errorResponses(401, 403, 404),
      },
    },
    async (request, reply) => {
      const claim = await claimForLink(ctx, request, request.params.linkId);
      const plan = await showPatientPlan({
        db: ctx.db,
        actor: auditContext(request),
        claim,
        linkId: request.params.linkId,
        practiceFallback: practiceFallback(ctx),
        timeZone: () => practiceTimeZone(ctx.db, ctx.config),
      });
      return reply.header('cache-control', 'no-store').send(plan);
    },
  );

  route(
    app,
    patientRoutes.acceptPlanAgreement,
    {
      preHandler: patient,
      schema: {
        tags,
        summary: 'Accept the card-on-file agreement shown on the payment page (before the deposit of a plan link)',
        description:
          '201 with the stored acceptance. The version must be CARD_ON_FILE_AGREEMENT_VERSION, the words the page ' +
          'showed; 409 `agreement_outdated` otherwise. With `text` (the words as shown, in `lang`, naming the card as ' +
          "`cardLabel`: a brand and four digits, 400 otherwise) the words must be the plan's current ones (409 " +
          '`agreement_changed` otherwise) and are kept with their SHA-256, the card unnamed until the server stores ' +
          "it and names it from the gateway's answer (decision 0240). The language, time, address and user agent " +
          'are stored. ' +
          'A plan link cannot get a payment session token before this (409 `agreement_required`). Not in the spec ' +
          '(decision 0207).',
        security: PATIENT_SECURITY,
        response: errorResponses(400, 401, 403, 404, 409),
      },
    },
    async (request, reply) => {
      assertLinkAccess(request, request.params.linkId);
      const ua = request.headers['user-agent'];
      const accepted = await acceptPlanAgreement({
        db: ctx.db,
        actor: auditContext(request),
        linkId: request.params.linkId,
        version: request.body.version,
        userAgent: typeof ua === 'string' ? ua : null,
        shown: { lang: request.body.lang, text: request.body.text, cardLabel: request.body.cardLabel },
        practiceFallback: practiceFallback(ctx),
      });
      return reply.status(201).send(accepted);
    },
  );

  // The update-card page (decision 0211): accept the agreement again (the route above), get a verification session,
  // run 3-D Secure and the gateway's pay in the browser, then report the verification here.
  route(
    app,
    patientRoutes.cardUpdateSession,
    {
      preHandler: patient,
      schema: {
        tags,
        summary: "A gateway session that verifies and stores a new card for the link's plan, charging nothing",
        description:
          'Converge `ccverify` with `ssl_get_token=Y` and `ssl_add_token=Y`; `updateId` is the merchant transaction ' +
          'id it carries. Needs an active or paused plan (409 `plan_pending` before the deposit, `plan_closed` after ' +
          'the plan ended) and the current card-on-file agreement accepted again for this card (409 ' +
          '`agreement_required`). At most 5 per link per hour (429 `too_many_payment_attempts`). Decision 0211.',
        security: PATIENT_SECURITY,
        response: errorResponses(400, 401, 403, 404, 409, 429, 502),
      },
    },
    async (request, reply) => {
      assertLinkAccess(request, request.params.linkId);
      const session = await startCardUpdate({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        actor: auditContext(request),
        linkId: request.params.linkId,
      });
      return reply.status(201).header('cache-control', 'no-store').send(session);
    },
  );

  route(
    app,
    patientRoutes.updatePlanCard,
    {
      preHandler: patient,
      schema: {
        tags,
        summary: "Store the verified card as the plan's card (it replaces the one kept)",
        description:
          'The server asks the gateway for `transactionId`: it must be the approved verification of `updateId` with ' +
          'a card token (409 `card_not_verified` otherwise; nothing changes). The token is sealed, the new card ' +
          'replaces the old one, and declined installments waiting for a retry are charged to it at the ' +
          "scheduler's next pass (`retrying`). The same call twice answers the same. Decision 0211.",
        security: PATIENT_SECURITY,
        response: errorResponses(400, 401, 403, 404, 409, 502),
      },
    },
    async (request, reply) => {
      assertLinkAccess(request, request.params.linkId);
      const result = await confirmCardUpdate({
        db: ctx.db,
        gateway: ctx.providers.gateway,
        secrets: { db: ctx.db, config: ctx.config },
        actor: auditContext(request),
        linkId: request.params.linkId,
        updateId: request.body.updateId,
        transactionId: request.body.transactionId,
      });
      return reply.header('cache-control', 'no-store').send(result);
    },
  );
}

const practiceFallback = (ctx: AppContext) => ({
  name: ctx.config.PRACTICE_NAME,
  supportPhone: ctx.config.PRACTICE_PHONE,
  supportEmail: ctx.config.PRACTICE_EMAIL,
});
