import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../lib/errors.js';
import { escapeHtml, joinHtml, markup, raw, type SafeHtml } from '../../lib/escape.js';
import { isLocalClient } from '../../http/local-client.js';
import { findOutboxBody, listOutbox, type OutboxItem } from './outbox-queries.js';

const querySchema = z.object({ to: z.string().max(320).optional() });
const uuid = z.uuid();

/**
 * The sandbox outbox: every SMS and e-mail the product "sent" in sandbox mode, for people trying the product and for
 * browser tests. No key or token; 404 outside sandbox mode.
 */
export async function devOutboxRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Sign-in codes are credentials: only this machine (loopback) or a staff token may read them (issue 11, finding 1).
  const sandboxOnly = async (request: FastifyRequest) => {
    if (ctx.config.mode !== 'sandbox') throw notFound();
    if (isLocalClient(request)) return;
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer && (await ctx.staffAccess.verifyToken(bearer))) return;
    throw new AppError(
      'outbox_local_only',
      'The sandbox outbox is shown only on the machine running Paylink (localhost) or with a staff token.',
    );
  };

  r.get(
    '/api/dev/outbox',
    { schema: { hide: true, querystring: querySchema }, onRequest: sandboxOnly },
    async (request, reply) => {
      const items = await listOutbox(ctx.db, { to: request.query.to });
      return reply.header('cache-control', 'no-store').send(items);
    },
  );

  r.get(
    '/dev/outbox',
    { schema: { hide: true, querystring: querySchema }, onRequest: sandboxOnly },
    async (request, reply) => {
      const items = await listOutbox(ctx.db, { to: request.query.to });
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(outboxPage(items, request.query.to));
    },
  );

  r.get(
    '/dev/outbox/:id',
    { schema: { hide: true, params: z.object({ id: z.string() }) }, onRequest: sandboxOnly },
    async (request, reply) => {
      if (!uuid.safeParse(request.params.id).success) throw notFound();
      const m = await findOutboxBody(ctx.db, request.params.id);
      if (!m) throw notFound();
      if (m.body_html) return reply.type('text/html; charset=utf-8').send(m.body_html);
      return reply.type('text/plain; charset=utf-8').send(m.body_text);
    },
  );
}

/** Text with its URLs as links and 6-digit codes highlighted. */
function richText(text: string): SafeHtml {
  // Escaped first; the links and marks are added to the escaped text (an escaped URL is a safe attribute value).
  return raw(
    escapeHtml(text)
      .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
      .replace(/(^|[^\w/=&;-])(\d{6})(?!\d)/g, '$1<mark class="code">$2</mark>'),
  );
}

function outboxPage(items: OutboxItem[], to: string | undefined): string {
  const rows = joinHtml(
    items.map(
      (m) => markup`<article class="msg">
<header><span class="badge ${m.channel}">${m.channel === 'sms' ? 'SMS' : 'E-mail'}</span>
<strong>To:</strong> ${m.to} <span class="meta">${m.kind} · ${m.status}${m.deliveryStatus ? markup` · <span class="delivery ${m.deliveryStatus}" data-delivery="${m.deliveryStatus}">${m.deliveryStatus}${m.deliveryError ? ` (${m.deliveryError})` : ''}</span>` : ''} · <time datetime="${m.createdAt}">${m.createdAt.replace('T', ' ').slice(0, 19)} UTC</time></span></header>
${m.subject ? markup`<p class="subject"><strong>Subject:</strong> ${m.subject}</p>` : ''}
<pre>${richText(m.text)}</pre>
${m.html ? markup`<p><a href="/dev/outbox/${m.id}" target="_blank" rel="noopener">View the HTML e-mail</a></p>` : ''}
</article>`,
    ),
    '\n',
  );
  return markup`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="refresh" content="5">
<title>Sandbox outbox · Paylink</title>
<style>
body{font-family:system-ui,Arial,sans-serif;margin:0;background:#f3f5f7;color:#1d2329}
main{max-width:860px;margin:0 auto;padding:16px}
.banner{background:#fff3cd;border:1px solid #e0c36a;padding:8px 12px;border-radius:6px}
form{margin:12px 0;display:flex;gap:8px;flex-wrap:wrap}
input{padding:6px 8px;font-size:16px;min-width:260px}
button,.btn{padding:6px 12px;font-size:16px}
.msg{background:#fff;border-radius:8px;padding:12px 16px;margin:12px 0;box-shadow:0 1px 2px rgba(0,0,0,.08)}
.badge{display:inline-block;padding:2px 8px;border-radius:10px;font-size:12px;color:#fff;margin-right:6px}
.badge.sms{background:#198754}.badge.email{background:#0b5ed7}
.meta{color:#666;font-size:13px}
.delivery{font-weight:600}.delivery.delivered,.delivery.accepted{color:#146c43}
.delivery.failed,.delivery.undelivered,.delivery.refused{color:#b02a37}
pre{white-space:pre-wrap;word-break:break-word;font-size:15px;background:#f8f9fa;padding:8px;border-radius:4px}
mark.code{font-size:20px;font-weight:700;letter-spacing:2px;padding:0 4px;background:#ffe58f}
</style>
</head>
<body>
<main>
<h1>Sandbox outbox</h1>
<p class="banner" role="note"><strong>Sandbox mode:</strong> nothing here was really sent. These are the text messages and
e-mails the product would have delivered. The page refreshes every 5 seconds. (The JSON is at /api/dev/outbox.)</p>
<form method="get" action="/dev/outbox">
<label for="to">Recipient (phone or e-mail)</label>
<input id="to" name="to" value="${to ?? ''}" autocomplete="off">
<button type="submit">Filter</button>
<a class="btn" href="/dev/outbox">Show all</a>
</form>
${items.length ? rows : markup`<p>No messages yet.</p>`}
</main>
</body>
</html>
`.toString();
}
