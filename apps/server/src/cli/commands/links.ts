import fs from 'node:fs';
import { InvalidArgumentError, Option } from 'commander';
import {
  consoleRoutes as routes,
  parseDuration,
  planEveryValues,
  type PlanEvery,
  type PlanInput,
} from '@paylink/shared';
import { call, download } from '../api-client.js';
import { linkDetailText, linksTable } from '../format.js';
import { isoDate, positiveInt, type Cli } from './kit.js';

const totalDollars = (v: string) => {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(v) || Number(v) <= 0) {
    throw new InvalidArgumentError('--total must be dollars like 5000 or 5000.50.');
  }
  return Number(v);
};

interface PlanOptions {
  total?: number;
  balanceDue?: string;
  installments?: number;
  every?: PlanEvery;
  firstDue?: string;
}

/**
 * The plan the flags describe (issue 28's CLI contract), or undefined without --total. Only the combinations are
 * checked here; the amounts and dates are the server's rules (400 with the field's message).
 */
function planFromOptions(o: PlanOptions): PlanInput | undefined {
  const installmentFlags = o.installments !== undefined || o.every !== undefined || o.firstDue !== undefined;
  if (o.total === undefined) {
    if (o.balanceDue !== undefined || installmentFlags) {
      throw new InvalidArgumentError('a plan needs --total (the quote in dollars).');
    }
    return undefined;
  }
  if (o.balanceDue !== undefined) {
    if (installmentFlags) {
      throw new InvalidArgumentError('use either --balance-due or --installments/--every/--first-due, not both.');
    }
    return { total: o.total, kind: 'single', dueOn: o.balanceDue };
  }
  if (o.installments === undefined || o.firstDue === undefined) {
    throw new InvalidArgumentError(
      '--total needs --balance-due <date>, or --installments <n> --every <period> --first-due <date>.',
    );
  }
  return {
    total: o.total,
    kind: 'installments',
    count: o.installments,
    every: o.every ?? 'month',
    firstDueOn: o.firstDue,
  };
}

/** `paylink links …`: create, send, list, show, the evidence pack, and the lifecycle changes. */
export function registerLinks({ program, env, print }: Cli): void {
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
    .option(
      '--total <dollars>',
      'payment plan: the total price (the deposit is paid now, the balance later)',
      totalDollars,
    )
    .option(
      '--balance-due <date>',
      'payment plan: charge the balance once on this date (YYYY-MM-DD)',
      isoDate('--balance-due'),
    )
    .option('--installments <n>', 'payment plan: the balance in n installments (2-24)', positiveInt('--installments'))
    .addOption(
      new Option('--every <period>', 'payment plan: time between installments (default month)').choices(
        planEveryValues,
      ),
    )
    .option('--first-due <date>', 'payment plan: the first installment date (YYYY-MM-DD)', isoDate('--first-due'))
    .action(async (o) => {
      let plan: PlanInput | undefined;
      try {
        plan = planFromOptions(o);
      } catch (err) {
        if (err instanceof InvalidArgumentError) links.error(`error: ${err.message}`, { exitCode: 2 });
        throw err;
      }
      const created = await call(env, routes.createLink, {
        body: {
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
          plan,
        },
      });
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
      const r = await call(env, routes.sendLink, { params: { id }, body: { channel: o.channel } });
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
      const r = await call(env, routes.links, { query: { status: o.status, limit: o.limit } });
      print(r, () => (r.links.length ? `${linksTable(r.links)}\n(${r.links.length} of ${r.total})` : 'No links.'));
    });

  links
    .command('show <id>')
    .description('one link: details, steps, payment and audit timeline')
    .action(async (id: string) => {
      const r = await call(env, routes.link, { params: { id } });
      print(r, () => linkDetailText(r));
    });

  links
    .command('evidence <id>')
    .description('save the dispute evidence pack (PDF) of a paid link; billing and admin only')
    .option('-o, --out <file>', 'where to save it (default evidence-<id>.pdf)')
    .addOption(new Option('--lang <lang>', 'language of the pack').choices(['en', 'es']).default('en'))
    .action(async (id: string, o: { out?: string; lang: 'en' | 'es' }) => {
      const pdf = await download(env, routes.evidencePack, { params: { id }, query: { lang: o.lang } });
      const out = o.out ?? `evidence-${id}.pdf`;
      fs.writeFileSync(out, pdf, { mode: 0o600 });
      print({ file: out, bytes: pdf.length }, () => `Saved ${out} (${pdf.length} bytes)`);
    });

  const lifecycle = (
    name: string,
    route: typeof routes.cancelLink | typeof routes.expireLink,
    description: string,
    done: string,
  ) =>
    links
      .command(`${name} <id>`)
      .description(description)
      .action(async (id: string) => {
        const r = await call(env, route, { params: { id } });
        print(r, () => `${done} ${r.id} (now ${r.status}, expires ${r.expiresAt})`);
      });
  lifecycle('cancel', routes.cancelLink, 'cancel a link (signs the patient out)', 'Cancelled');
  lifecycle('expire', routes.expireLink, 'expire a link now', 'Expired');

  links
    .command('extend <id>')
    .description('extend a link by N days (from now if it already expired)')
    .requiredOption('--days <n>', 'days to add', positiveInt('--days'))
    .action(async (id: string, o: { days: number }) => {
      const r = await call(env, routes.extendLink, { params: { id }, body: { days: o.days } });
      print(r, () => `Extended ${r.id}: expires ${r.expiresAt} (${r.status})`);
    });
}
