import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Command, InvalidArgumentError, Option } from 'commander';
import { LINK_ID_PATTERN, parseDuration, type LinkDetail, type LinkSummary } from '@paylink/shared';
import { CliError, callApi, resolveCliEnv } from './api-client.js';
import { forTerminal, jsonForTerminal, linkDetailText, linksTable, table } from './format.js';

/**
 * `npm run paylink -- <command>`: a thin client of the admin API (docs/coordinator.md). It finds the server from
 * PAYLINK_URL (default http://localhost:$PORT) and its token from PAYLINK_ADMIN_TOKEN or <PAYLINK_DATA_DIR>/admin-token.
 */
const program = new Command();
const env = resolveCliEnv();

const print = (json: unknown, human: () => string) => {
  console.log(program.opts().json ? jsonForTerminal(json) : forTerminal(human()));
};

const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1)
    throw new InvalidArgumentError(`${name} must be a whole number of at least 1.`);
  return Number(v);
};

program
  .name('paylink')
  .description('Paylink coordinator CLI: create and manage patient payment links.')
  .option('--json', 'print JSON instead of text')
  .showHelpAfterError('(add --help for usage)')
  // Links made before ids stopped starting with '-' still exist; commander reads such an id as an option.
  .configureOutput({
    outputError: (message, write) => {
      const id = /unknown option '([^']+)'/.exec(message)?.[1];
      write(message);
      if (id && LINK_ID_PATTERN.test(id))
        write(`If ${id} is a link id, put -- before it, after the options: paylink links show -- ${id}\n`);
    },
  })
  .addHelpText(
    'after',
    `\nServer: PAYLINK_URL (default http://localhost:$PORT, now ${env.baseUrl}).` +
      `\nToken:  PAYLINK_ADMIN_TOKEN, or the file the server writes in sandbox mode (${env.tokenSource}).`,
  );

const links = program.command('links').description('patient links');

links
  .command('create')
  .description('create a link and print its personal URL')
  .requiredOption('--first-name <name>', "patient's first name")
  .requiredOption('--last-name <name>', "patient's last name")
  .option('--phone <phone>', 'phone for SMS sign-in, e.g. "(555) 010-1234" or +34...')
  .option('--email <email>', "patient's e-mail (needed for e-mail sign-in)")
  .option('--address <address>', 'street address')
  .option('--city <city>', 'city')
  .option('--state <state>', 'state, e.g. CA')
  .option('--zip <zip>', 'ZIP code')
  .option('--payor-name <name>', 'name of the payor, when someone else pays')
  .option('--payor-email <email>', "payor's e-mail")
  .option('--locked', 'locked link: partial payment only (500-20000)')
  .addOption(
    new Option('--sign-in <method>', 'how the patient signs in (default: sms with --phone, else email)').choices([
      'sms',
      'email',
    ]),
  )
  .option('--expires-in <duration>', 'lifetime like 14d, 36h or 90m (default 14d)', (v: string) => {
    if (parseDuration(v) === null)
      throw new InvalidArgumentError('use a duration like 14d, 36h or 90m (at most 365d).');
    return v;
  })
  .addOption(new Option('--lang <lang>', "patient's language for SMS and e-mail").choices(['en', 'es']))
  .option('--procedure <text>', 'procedure description shown on the invoice')
  .addOption(new Option('--send <channel>', 'send the link to the patient right away').choices(['sms', 'email']))
  .action(async (o) => {
    const body = {
      firstName: o.firstName,
      lastName: o.lastName,
      phone: o.phone,
      email: o.email,
      address: o.address,
      city: o.city,
      state: o.state,
      zipCode: o.zip,
      payorName: o.payorName,
      payorEmail: o.payorEmail,
      isPaymentLinkLocked: Boolean(o.locked),
      signInMethod: o.signIn,
      expiresIn: o.expiresIn,
      language: o.lang,
      procedureDescription: o.procedure,
      send: o.send,
    };
    const created = await callApi<{
      id: string;
      url: string;
      expiresAt: string;
      message?: { channel: string; to: string };
    }>(env, 'POST', '/api/admin/links', body);
    print(
      created,
      () =>
        `Created link ${created.id}\n  ${created.url}\n  expires ${created.expiresAt}` +
        (created.message ? `\n  sent by ${created.message.channel} to ${created.message.to}` : ''),
    );
  });

links
  .command('send <id>')
  .description("send the link's personal URL to the patient by SMS or e-mail")
  .addOption(new Option('--channel <channel>', 'sms or email').choices(['sms', 'email']).makeOptionMandatory())
  .action(async (id: string, o: { channel: 'sms' | 'email' }) => {
    const r = await callApi<{ id: string; channel: string; to: string }>(
      env,
      'POST',
      `/api/admin/links/${encodeURIComponent(id)}/send`,
      { channel: o.channel },
    );
    print(r, () => `Sent ${id} by ${r.channel} to ${r.to} (message ${r.id})`);
  });

links
  .command('list')
  .description('list links, newest first, with step progress')
  .addOption(
    new Option('--status <status>', 'only this state').choices(['active', 'expired', 'cancelled', 'completed']),
  )
  .option('--limit <n>', 'how many (default 50)', positiveInt('--limit'))
  .action(async (o) => {
    const q = new URLSearchParams();
    if (o.status) q.set('status', o.status);
    if (o.limit) q.set('limit', String(o.limit));
    const r = await callApi<{ links: LinkSummary[]; total: number }>(env, 'GET', `/api/admin/links?${q}`);
    print(r, () => (r.links.length ? `${linksTable(r.links)}\n(${r.links.length} of ${r.total})` : 'No links.'));
  });

links
  .command('show <id>')
  .description('one link: details, steps, payment and audit timeline')
  .action(async (id: string) => {
    const r = await callApi<LinkDetail>(env, 'GET', `/api/admin/links/${encodeURIComponent(id)}`);
    print(r, () => linkDetailText(r));
  });

links
  .command('evidence <id>')
  .description('save the dispute evidence pack (PDF) of a paid link; billing and admin only')
  .option('-o, --out <file>', 'where to save it (default evidence-<id>.pdf)')
  .addOption(new Option('--lang <lang>', 'language of the pack').choices(['en', 'es']).default('en'))
  .action(async (id: string, o: { out?: string; lang: string }) => {
    const pdf = await callApi<Buffer>(
      env,
      'GET',
      `/api/admin/links/${encodeURIComponent(id)}/evidence.pdf?lang=${o.lang}`,
      undefined,
      { binary: true },
    );
    const out = o.out ?? `evidence-${id}.pdf`;
    fs.writeFileSync(out, pdf, { mode: 0o600 });
    print({ file: out, bytes: pdf.length }, () => `Saved ${out} (${pdf.length} bytes)`);
  });

const lifecycle = (name: string, description: string, done: string) =>
  links
    .command(`${name} <id>`)
    .description(description)
    .action(async (id: string) => {
      const r = await callApi<LinkSummary>(env, 'POST', `/api/admin/links/${encodeURIComponent(id)}/${name}`);
      print(r, () => `${done} ${r.id} (now ${r.status}, expires ${r.expiresAt})`);
    });
lifecycle('cancel', 'cancel a link (signs the patient out)', 'Cancelled');
lifecycle('expire', 'expire a link now', 'Expired');

links
  .command('extend <id>')
  .description('extend a link by N days (from now if it already expired)')
  .requiredOption('--days <n>', 'days to add', positiveInt('--days'))
  .action(async (id: string, o: { days: number }) => {
    const r = await callApi<LinkSummary>(env, 'POST', `/api/admin/links/${encodeURIComponent(id)}/extend`, {
      days: o.days,
    });
    print(r, () => `Extended ${r.id}: expires ${r.expiresAt} (${r.status})`);
  });

const payments = program.command('payments').description('payments');
payments
  .command('list')
  .description('list payments, newest first')
  .addOption(new Option('--status <status>', 'only this status').choices(['chosen', 'approved']))
  .option('--limit <n>', 'how many (default 50)', positiveInt('--limit'))
  .action(async (o) => {
    const q = new URLSearchParams();
    if (o.status) q.set('status', o.status);
    if (o.limit) q.set('limit', String(o.limit));
    type P = LinkSummary['payment'] & {
      linkId: string;
      firstName: string;
      lastName: string;
      createdAt: string;
      attention?: { attemptId: string; transactionId: string | null; amount: number; reason: string }[];
    };
    const r = await callApi<{ payments: NonNullable<P>[]; total: number }>(env, 'GET', `/api/admin/payments?${q}`);
    print(r, () =>
      r.payments.length
        ? table([
            ['LINK', 'NAME', 'AMOUNT', 'TYPE', 'WHO PAYS', 'STATUS', 'TRANSACTION', 'CARD', 'PAID'],
            ...r.payments.map((p) => [
              p.linkId,
              `${p.firstName} ${p.lastName}`,
              `$${p.amount.toFixed(2)}`,
              p.paymentTypeId === 2 ? 'payment' : 'deposit',
              p.paymentSourceId === 2 ? 'payor' : 'patient',
              // A second approval at the gateway must be voided: say so on the row staff read.
              p.attention?.length
                ? `${p.status}; VOID NEEDED: ${p.attention
                    .map((a) => `${a.transactionId ?? '?'} $${a.amount.toFixed(2)} (${a.reason}; flag ${a.attemptId})`)
                    .join(', ')}`
                : p.status,
              p.transactionId ?? '-',
              p.cardLast4 ? `${p.cardBrand ?? ''} ${p.cardLast4}`.trim() : '-',
              p.paidAt ?? '-',
            ]),
          ])
        : 'No payments.',
    );
  });

const dollars = (v: string) => {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(v) || Number(v) <= 0) {
    throw new InvalidArgumentError('--amount must be dollars like 120 or 120.50.');
  }
  return Number(v);
};

payments
  .command('refund <linkId>')
  .description("refund a link's payment (void before settlement, return after); billing and admin only")
  .option('--amount <dollars>', 'how much to give back (default: everything not yet refunded)', dollars)
  .requiredOption('--reason <text>', 'why (kept in the audit trail; not sent to the patient)')
  .option('--idempotency-key <key>', 'reuse a key to retry safely: the same key never refunds twice')
  .action(async (id: string, o: { amount?: number; reason: string; idempotencyKey?: string }) => {
    type R = {
      id: string;
      kind: string;
      amount: number;
      transactionId: string;
      payment: { amount: number; refunded: number; remaining: number; refundState: string };
    };
    const r = await callApi<R>(
      env,
      'POST',
      `/api/admin/links/${encodeURIComponent(id)}/refund`,
      { amount: o.amount, reason: o.reason },
      { headers: { 'idempotency-key': o.idempotencyKey ?? `cli-${randomUUID()}` } },
    );
    print(
      r,
      () =>
        `${r.kind === 'void' ? 'Voided' : 'Refunded'} $${r.amount.toFixed(2)} (gateway transaction ${r.transactionId}).\n` +
        `  Payment $${r.payment.amount.toFixed(2)}: refunded $${r.payment.refunded.toFixed(2)}, ` +
        `$${r.payment.remaining.toFixed(2)} left (${r.payment.refundState.replace('_', ' ')}).`,
    );
  });

payments
  .command('void-flagged <flagId>')
  .description(
    'void (or return, once settled) a second approval flagged by reconciliation — the flag id is shown by ' +
      '`payments list`; billing and admin only',
  )
  .requiredOption('--reason <text>', 'why (kept in the audit trail; not sent to the patient)')
  .option('--idempotency-key <key>', 'reuse a key to retry safely: the same key never refunds twice')
  .action(async (id: string, o: { reason: string; idempotencyKey?: string }) => {
    type R = { kind: string; amount: number; transactionId: string; originalTransactionId: string; linkId: string };
    const r = await callApi<R>(
      env,
      'POST',
      `/api/admin/payments/attention/${encodeURIComponent(id)}/void`,
      { reason: o.reason },
      { headers: { 'idempotency-key': o.idempotencyKey ?? `cli-${randomUUID()}` } },
    );
    print(
      r,
      () =>
        `${r.kind === 'void' ? 'Voided' : 'Refunded'} the flagged charge ${r.originalTransactionId} of ` +
        `$${r.amount.toFixed(2)} on link ${r.linkId} (gateway transaction ${r.transactionId}); the flag is resolved.`,
    );
  });

const isoDate = (name: string) => (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v)))
    throw new InvalidArgumentError(`${name} must be a date like 2026-03-31.`);
  return v;
};
const reportQuery = (o: { from?: string; to?: string; status?: string; coordinator?: string; q?: string }) => {
  const q = new URLSearchParams();
  if (o.from) q.set('from', o.from);
  if (o.to) q.set('to', o.to);
  if (o.status) q.set('status', o.status);
  if (o.coordinator) q.set('coordinatorId', o.coordinator);
  if (o.q) q.set('q', o.q);
  return q;
};

payments
  .command('export')
  .description('payments as CSV (dollars, ISO 8601 times, card brand + last 4 only)')
  .option('--from <date>', 'first day, YYYY-MM-DD (practice time zone)', isoDate('--from'))
  .option('--to <date>', 'last day, YYYY-MM-DD', isoDate('--to'))
  .addOption(new Option('--status <status>', 'only paid or only not yet paid').choices(['approved', 'attempted']))
  .option('--coordinator <id>', "a coordinator's staff id, or me")
  .option('-o, --out <file>', 'write to this file (default: standard output)')
  .action(async (o) => {
    const csv = await callApi<Buffer>(env, 'GET', `/api/admin/payments/export?${reportQuery(o)}`, undefined, {
      binary: true,
    });
    if (o.out) {
      fs.writeFileSync(o.out, csv, { mode: 0o600 });
      const rows = csv.toString('utf8').split('\r\n').filter(Boolean).length - 1;
      console.error(`Saved ${o.out} (${rows} payments)`);
    } else process.stdout.write(csv);
  });

program
  .command('funnel')
  .description('links created → sent → opened → signed in → each step → paid, with conversion and stalled links')
  .option('--from <date>', 'first day of link creation, YYYY-MM-DD (default: 29 days before --to)', isoDate('--from'))
  .option('--to <date>', 'last day, YYYY-MM-DD (default: today)', isoDate('--to'))
  .option('--coordinator <id>', "a coordinator's staff id, or me")
  .option(
    '--stalled-after <hours>',
    'no patient activity for this long = stalled (default 48)',
    positiveInt('--stalled-after'),
  )
  .action(async (o) => {
    const q = reportQuery(o);
    if (o.stalledAfter) q.set('stalledAfterHours', String(o.stalledAfter));
    type Stage = { key: string; count: number; conversion: number | null; medianSeconds: number | null };
    const r = await callApi<{
      from: string;
      to: string;
      timeZone: string;
      stages: Stage[];
      stalled: { stage: string; count: number }[];
    }>(env, 'GET', `/api/admin/funnel?${q}`);
    const dur = (s: number | null) =>
      s === null
        ? '-'
        : s < 3600
          ? `${Math.round(s / 60)} min`
          : s < 172800
            ? `${(s / 3600).toFixed(1)} h`
            : `${(s / 86400).toFixed(1)} d`;
    print(r, () =>
      [
        `Links created ${r.from} to ${r.to} (${r.timeZone})`,
        table([
          ['STAGE', 'LINKS', 'CONVERSION', 'MEDIAN TIME'],
          ...r.stages.map((s) => [
            s.key,
            String(s.count),
            s.conversion === null ? '-' : `${(s.conversion * 100).toFixed(1)}%`,
            dur(s.medianSeconds),
          ]),
        ]),
        r.stalled.length
          ? `Stalled: ${r.stalled.map((s) => `${s.count} at ${s.stage}`).join(', ')}`
          : 'No stalled links.',
      ].join('\n'),
    );
  });

program
  .command('login')
  .description('sign in as a staff user and print a 12-hour token for PAYLINK_ADMIN_TOKEN')
  .requiredOption('--email <email>', 'staff e-mail')
  .option('--password <password>', 'password (default: PAYLINK_ADMIN_PASSWORD, else read from stdin)')
  .option('--code <code>', 'two-factor code from the authenticator app (or a recovery code), when 2FA is on')
  .action(async (o: { email: string; password?: string; code?: string }) => {
    const password = o.password ?? process.env.PAYLINK_ADMIN_PASSWORD ?? (await readStdin());
    const r = await callApi<{ token: string; expiresAt: string }>(
      env,
      'POST',
      '/api/admin/login',
      { email: o.email, password, ...(o.code ? { code: o.code } : {}) },
      { auth: false },
    );
    print(r, () => `export PAYLINK_ADMIN_TOKEN=${r.token}   # valid until ${r.expiresAt}`);
  });

const documents = program.command('documents').description('signed documents and ID uploads');
documents
  .command('list <linkId>')
  .description("a link's documents and their signing status")
  .action(async (id: string) => {
    type Doc = {
      submissionId: string;
      kind: string;
      status: string;
      signerName: string | null;
      signatureMethod: string | null;
      completedAt: string | null;
    };
    const r = await callApi<Doc[]>(env, 'GET', `/api/admin/links/${encodeURIComponent(id)}/documents`);
    print(r, () =>
      r.length
        ? table([
            ['ID', 'KIND', 'STATUS', 'SIGNER', 'METHOD', 'SIGNED'],
            ...r.map((d) => [
              d.submissionId,
              d.kind,
              d.status,
              d.signerName ?? '-',
              d.signatureMethod ?? '-',
              d.completedAt ?? '-',
            ]),
          ])
        : 'No documents yet (they are prepared when the patient chooses a payment).',
    );
  });
documents
  .command('download <submissionId>')
  .description('save the signed PDF of a completed document')
  .option('-o, --out <file>', 'where to save it (default <submissionId>.pdf)')
  .action(async (id: string, o: { out?: string }) => {
    const pdf = await callApi<Buffer>(env, 'GET', `/api/admin/documents/${encodeURIComponent(id)}/pdf`, undefined, {
      binary: true,
    });
    const out = o.out ?? `${id}.pdf`;
    fs.writeFileSync(out, pdf, { mode: 0o600 });
    print({ file: out, bytes: pdf.length }, () => `Saved ${out} (${pdf.length} bytes)`);
  });

const staff = program.command('staff').description('staff users (admins only)');
staff
  .command('add')
  .description('create a staff user')
  .requiredOption('--email <email>', 'e-mail')
  .requiredOption('--password <password>', 'password (at least 12 characters)')
  .option('--name <name>', 'display name')
  .addOption(new Option('--role <role>', 'role').choices(['admin', 'coordinator', 'billing']).default('coordinator'))
  .action(async (o) => {
    const r = await callApi<{ id: string; email: string; role: string }>(env, 'POST', '/api/admin/staff', {
      email: o.email,
      password: o.password,
      name: o.name,
      role: o.role,
    });
    print(r, () => `Created ${r.role} ${r.email}`);
  });
staff
  .command('list')
  .description('list staff users')
  .action(async () => {
    const r = await callApi<{ staff: { email: string; name: string; role: string; createdAt: string }[] }>(
      env,
      'GET',
      '/api/admin/staff',
    );
    print(r, () =>
      table([['E-MAIL', 'NAME', 'ROLE', 'CREATED'], ...r.staff.map((s) => [s.email, s.name, s.role, s.createdAt])]),
    );
  });

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new CliError('Give --password, set PAYLINK_ADMIN_PASSWORD, or pipe the password in.');
  let data = '';
  for await (const chunk of process.stdin) data += chunk;
  return data.trim();
}

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CliError) {
    if (program.opts().json) console.error(jsonForTerminal({ error: err.message, fields: err.details }));
    else {
      console.error(forTerminal(`error: ${err.message}`));
      for (const [k, v] of Object.entries(err.details ?? {})) {
        if (!err.message.includes(v)) console.error(forTerminal(`  ${k}: ${v}`));
      }
    }
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
