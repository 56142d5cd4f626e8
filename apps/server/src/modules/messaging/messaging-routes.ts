import { type Language, consoleRoutes } from '@paylink/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { auditContext, writeAudit } from '../../lib/audit.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { getOrCreateSecret } from '../../lib/secrets.js';
import { ROLES, requireStaff } from '../../http/require-staff.js';
import { escapeXml, markup } from '../../lib/escape.js';
import { errorResponses } from '../../http/route-support.js';
import { recordTwilioStatus } from './delivery-status.js';
import { practiceFor } from './link-messages.js';
import { keywordReply } from './message-texts.js';
import { listOptOuts, optIn, optOut, readUnsubscribeToken } from '../../messages/opt-outs.js';
import { loadReminderPlan, planToSetting, saveReminderPlan } from './reminder-plan.js';
import { sendLink } from './send-link.js';
import { isValidTwilioSignature } from './twilio-signature.js';
import { listLinkMessages } from './list-link-messages.js';
import { findNotificationPrefs, newestLanguageForPhone } from './messaging-queries.js';
import { saveNotificationPrefs } from './save-notification-prefs.js';
import { switchLinkReminders } from './switch-link-reminders.js';
import { route } from '../../http/route.js';

const STAFF_SECURITY = [{ bearer: [] }];
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'ALTO', 'PARAR', 'BAJA']);
/** Keywords Twilio's Advanced Opt-Out answers itself; for the others we send the confirmation. */
const TWILIO_ANSWERS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'START', 'UNSTOP', 'YES']);
const OPT_IN = new Set(['START', 'UNSTOP', 'YES']);
const HELP = new Set(['HELP', 'INFO', 'AYUDA']);

/**
 * Messaging (issue 14): sending links, delivery statuses, reminders, consent. Staff routes under /api/admin; Twilio's
 * webhooks under /api/webhooks (signed, no API key); the public one-click unsubscribe at /unsubscribe.
 */
export async function messagingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    // Twilio and RFC 8058 clients POST form-encoded bodies; the raw text is what the signature covers.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, body),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const staff = requireStaff(ctx);
    const sender = requireStaff(ctx, { roles: ROLES.manageLinks });
    const admin = requireStaff(ctx, { roles: ROLES.admin });
    const tags = ['messaging'];

    route(
      scope,
      consoleRoutes.sendLink,
      {
        preHandler: sender,
        schema: {
          tags,
          summary: 'Send the personal link to the patient by SMS or e-mail (admins and coordinators)',
          description:
            'Queues the message in the outbox and starts the link’s reminder plan. 409 link_not_active for a ' +
            'cancelled, completed or expired link; 409 opted_out when the address opted out; 400 when the link has ' +
            'no address for the channel.',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 403, 404, 409),
        },
      },
      async (request, reply) => {
        const sent = await ctx.db.transaction((tx) =>
          sendLink({
            tx,
            config: ctx.config,
            actor: auditContext(request),
            linkId: request.params.id,
            channel: request.body.channel,
            senderId: request.staff!.userId,
          }),
        );
        return reply.status(201).send(sent);
      },
    );

    route(
      scope,
      consoleRoutes.linkMessages,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Messages sent for a link (sends, reminders, sign-in) with delivery statuses, and its reminders',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 404),
        },
      },
      async (request) =>
        ctx.db.transaction(async (tx) => {
          const result = await listLinkMessages(tx, { config: ctx.config, linkId: request.params.id });
          if (!result) throw notFound('No link with this id.');
          await writeAudit(tx, { ...auditContext(request), action: 'link.messages_read', linkId: request.params.id });
          return result;
        }),
    );

    route(
      scope,
      consoleRoutes.linkReminders,
      {
        preHandler: sender,
        schema: {
          tags,
          summary: 'Turn reminders on or off for one link (admins and coordinators)',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 403, 404),
        },
      },
      async (request) =>
        switchLinkReminders({
          db: ctx.db,
          actor: auditContext(request),
          linkId: request.params.id,
          enabled: request.body.enabled,
        }),
    );

    route(
      scope,
      consoleRoutes.optOuts,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Phone numbers and e-mail addresses that opted out of link sends and reminders',
          security: STAFF_SECURITY,
          response: errorResponses(401),
        },
      },
      async (request) =>
        ctx.db.transaction(async (tx) => {
          const optOuts = await listOptOuts(tx);
          await writeAudit(tx, { ...auditContext(request), action: 'messaging.opt_outs_read' });
          return { optOuts };
        }),
    );

    route(
      scope,
      consoleRoutes.reminderPlan,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'The practice’s reminder plan (or the REMINDER_* defaults)',
          security: STAFF_SECURITY,
          response: errorResponses(401),
        },
      },
      async () => planToSetting(await loadReminderPlan(ctx.db, ctx.config)),
    );

    route(
      scope,
      consoleRoutes.updateReminderPlan,
      {
        preHandler: admin,
        schema: {
          tags,
          summary: 'Set the practice’s reminder plan (admins); null turns a reminder off',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401, 403),
        },
      },
      async (request) => {
        await ctx.db.transaction((tx) => saveReminderPlan(tx, { setting: request.body, actor: auditContext(request) }));
        return planToSetting(await loadReminderPlan(ctx.db, ctx.config));
      },
    );

    route(
      scope,
      consoleRoutes.notificationPrefs,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'My staff notifications: e-mail when my links are paid or need attention',
          security: STAFF_SECURITY,
          response: errorResponses(401),
        },
      },
      async (request) => findNotificationPrefs(ctx.db, request.staff!.userId),
    );

    route(
      scope,
      consoleRoutes.updateNotificationPrefs,
      {
        preHandler: staff,
        schema: {
          tags,
          summary: 'Set my staff notifications',
          security: STAFF_SECURITY,
          response: errorResponses(400, 401),
        },
      },
      async (request) =>
        saveNotificationPrefs({
          db: ctx.db,
          actor: auditContext(request),
          staffUserId: request.staff!.userId,
          onPaid: request.body.onPaid,
          onAttention: request.body.onAttention,
        }),
    );

    // --- Twilio webhooks: form-encoded, signed with the auth token over PUBLIC_URL + path + sorted parameters.
    const twilioToken = async () =>
      ctx.config.TWILIO_AUTH_TOKEN ?? (await getOrCreateSecret(ctx.db, 'twilio-sandbox-auth-token'));
    const signedForm = async (request: FastifyRequest): Promise<URLSearchParams> => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const params = new URLSearchParams(raw);
      const header = request.headers['x-twilio-signature'];
      const ok = isValidTwilioSignature({
        authToken: await twilioToken(),
        url: `${ctx.config.publicUrl}${request.url}`,
        params,
        header: typeof header === 'string' ? header : undefined,
      });
      if (!ok) {
        request.log.warn({ url: request.url }, 'refused a Twilio webhook with a missing or wrong signature');
        throw new AppError('forbidden', 'The X-Twilio-Signature header is missing or wrong.');
      }
      return params;
    };
    const webhook = { schema: { hide: true } };

    r.post('/api/webhooks/twilio/status', webhook, async (request, reply) => {
      const params = await signedForm(request);
      const sid = params.get('MessageSid') ?? params.get('SmsSid');
      const status = params.get('MessageStatus') ?? params.get('SmsStatus');
      if (sid && status) {
        await ctx.db.transaction((tx) =>
          recordTwilioStatus(tx, {
            messageSid: sid,
            status,
            errorCode: params.get('ErrorCode'),
            requestId: request.id,
          }),
        );
      }
      return reply.status(204).send();
    });

    r.post('/api/webhooks/twilio/sms', webhook, async (request, reply) => {
      const params = await signedForm(request);
      const from = params.get('From') ?? '';
      // A phone number (E.164, at most 15 digits) or a short sender id; anything longer would not fit the consent
      // tables and is not something Twilio sends (issue 26: a 500 before).
      if (from.length > 64) throw badRequest('From is not a phone number.', { From: 'at most 64 characters' });
      const keyword = (params.get('Body') ?? '')
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .trim()
        .replace(/[.!?¡¿\s]+$/g, '')
        .replace(/^[¡¿\s]+/g, '')
        .toUpperCase();
      let answer: string | null = null;
      if (from && (OPT_OUT.has(keyword) || OPT_IN.has(keyword) || HELP.has(keyword))) {
        const practice = await practiceFor(ctx.db, ctx.config);
        const lang = await languageOf(ctx, from, keyword);
        const actor = { actorType: 'system' as const, requestId: request.id, ip: request.ip };
        if (OPT_OUT.has(keyword)) {
          await ctx.db.transaction((tx) =>
            optOut(tx, { channel: 'sms', address: from, source: 'sms-keyword', keyword, actor }),
          );
          if (!TWILIO_ANSWERS.has(keyword)) answer = keywordReply('opted-out', lang, practice);
        } else if (OPT_IN.has(keyword)) {
          await ctx.db.transaction((tx) =>
            optIn(tx, { channel: 'sms', address: from, source: 'sms-keyword', keyword, actor }),
          );
        } else {
          answer = keywordReply('help', lang, practice);
        }
      }
      return reply
        .type('text/xml; charset=utf-8')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?><Response>${answer ? `<Message>${escapeXml(answer)}</Message>` : ''}</Response>`,
        );
    });

    // --- E-mail unsubscribe (RFC 8058): GET shows a confirm button (mail scanners open links); POST unsubscribes.
    const unsubscribeQuery = z.object({ t: z.string().max(800).optional() });
    const unsubscribeSecret = () => getOrCreateSecret(ctx.db, 'messaging-unsubscribe');
    const page = (reply: FastifyReply, status: number, en: string, es: string, form?: string) =>
      reply
        .status(status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(unsubscribePage(en, es, form));

    r.get('/unsubscribe', { schema: { hide: true, querystring: unsubscribeQuery } }, async (request, reply) => {
      const email = request.query.t ? readUnsubscribeToken(await unsubscribeSecret(), request.query.t) : null;
      if (!email) return page(reply, 400, BAD_LINK.en, BAD_LINK.es);
      const action = `/unsubscribe?t=${encodeURIComponent(request.query.t!)}`;
      return page(
        reply,
        200,
        `Stop e-mails about your payment link to ${email}?`,
        `¿Dejar de recibir correos sobre su enlace de pago en ${email}?`,
        action,
      );
    });

    r.post('/unsubscribe', { schema: { hide: true, querystring: unsubscribeQuery } }, async (request, reply) => {
      const email = request.query.t ? readUnsubscribeToken(await unsubscribeSecret(), request.query.t) : null;
      if (!email) return page(reply, 400, BAD_LINK.en, BAD_LINK.es);
      const oneClick = typeof request.body === 'string' && /List-Unsubscribe=One-Click/i.test(request.body);
      await ctx.db.transaction((tx) =>
        optOut(tx, {
          channel: 'email',
          address: email,
          source: oneClick ? 'email-one-click' : 'email-page',
          actor: { actorType: 'system', requestId: request.id, ip: request.ip },
        }),
      );
      return page(
        reply,
        200,
        `Done: ${email} will get no more reminders or payment links by e-mail from us. Sign-in e-mails you ask for still arrive.`,
        `Listo: ${email} no recibirá más recordatorios ni enlaces de pago por correo. Los correos de inicio de sesión que usted pida seguirán llegando.`,
      );
    });
  });
}

const BAD_LINK = {
  en: 'This unsubscribe link is not valid. Call the practice to stop messages.',
  es: 'Este enlace para darse de baja no es válido. Llame a la práctica para dejar de recibir mensajes.',
};

/** The language of the newest link with this phone number (for HELP answers); Spanish keywords answer in Spanish. */
async function languageOf(ctx: AppContext, phone: string, keyword: string): Promise<Language> {
  if (['ALTO', 'PARAR', 'BAJA', 'AYUDA'].includes(keyword)) return 'es';
  const digits = phone.replace(/\D/g, '').slice(-10);
  return (await newestLanguageForPhone(ctx.db, digits)) ?? 'en';
}

function unsubscribePage(en: string, es: string, action?: string): string {
  const form = action
    ? markup`<form method="post" action="${action}"><button type="submit">Unsubscribe · Darme de baja</button></form>`
    : '';
  return markup`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Unsubscribe · Darse de baja</title>
<style>body{font-family:system-ui,Arial,sans-serif;max-width:560px;margin:40px auto;padding:0 16px;color:#1d2329}
button{font-size:18px;padding:10px 20px;border-radius:6px;border:0;background:#0b5ed7;color:#fff;cursor:pointer}</style></head>
<body><main>
<h1>Unsubscribe</h1><p>${en}</p>
<h1 lang="es">Darse de baja</h1><p lang="es">${es}</p>
${form}
</main></body></html>
`.toString();
}
