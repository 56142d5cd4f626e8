import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { InvalidArgumentError, Option } from 'commander';
import { consoleRoutes as routes } from '@paylink/shared';
import { call, download } from '../api-client.js';
import { table } from '../format.js';
import { isoDate, positiveInt, reportQuery, type Cli } from './kit.js';

const dollars = (v: string) => {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(v) || Number(v) <= 0) {
    throw new InvalidArgumentError('--amount must be dollars like 120 or 120.50.');
  }
  return Number(v);
};

/** `paylink payments …`: the list, refunds, voids of flagged second approvals and the CSV export. */
export function registerPayments({ program, env, print }: Cli): void {
  const payments = program.command('payments').description('payments');
  payments
    .command('list')
    .description('list payments, newest first')
    .addOption(new Option('--status <status>', 'only this status').choices(['chosen', 'approved']))
    .option('--limit <n>', 'how many (default 50)', positiveInt('--limit'))
    .action(async (o) => {
      const r = await call(env, routes.payments, { query: { status: o.status, limit: o.limit } });
      print(r, () =>
        r.payments.length
          ? table([
              ['LINK', 'NAME', 'AMOUNT', 'TYPE', 'WHO PAYS', 'STATUS', 'TRANSACTION', 'CARD', 'PAID'],
              ...r.payments.map((p) => [
                p.linkId,
                `${p.firstName} ${p.lastName}`,
                `$${p.amount.toFixed(2)}`,
                p.paymentTypeId === 2 ? 'payment' : 'deposit',
                p.payer,
                // A second approval at the gateway must be voided: say so on the row staff read.
                p.attention.length
                  ? `${p.status}; VOID NEEDED: ${p.attention
                      .map(
                        (a) => `${a.transactionId ?? '?'} $${a.amount.toFixed(2)} (${a.reason}; flag ${a.attemptId})`,
                      )
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

  payments
    .command('refund <linkId>')
    .description("refund a link's payment (void before settlement, return after); billing and admin only")
    .option('--amount <dollars>', 'how much to give back (default: everything not yet refunded)', dollars)
    .requiredOption('--reason <text>', 'why (kept in the audit trail; not sent to the patient)')
    .option('--idempotency-key <key>', 'reuse a key to retry safely: the same key never refunds twice')
    .action(async (id: string, o: { amount?: number; reason: string; idempotencyKey?: string }) => {
      const r = await call(
        env,
        routes.refund,
        { params: { id }, body: { amount: o.amount, reason: o.reason } },
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
      const r = await call(
        env,
        routes.voidFlaggedApproval,
        { params: { attemptId: id }, body: { reason: o.reason } },
        { headers: { 'idempotency-key': o.idempotencyKey ?? `cli-${randomUUID()}` } },
      );
      print(
        r,
        () =>
          `${r.kind === 'void' ? 'Voided' : 'Refunded'} the flagged charge ${r.originalTransactionId} of ` +
          `$${r.amount.toFixed(2)} on link ${r.linkId} (gateway transaction ${r.transactionId}); the flag is resolved.`,
      );
    });

  payments
    .command('export')
    .description('payments as CSV (dollars, ISO 8601 times, card brand + last 4 only)')
    .option('--from <date>', 'first day, YYYY-MM-DD (practice time zone)', isoDate('--from'))
    .option('--to <date>', 'last day, YYYY-MM-DD', isoDate('--to'))
    .addOption(new Option('--status <status>', 'only paid or only not yet paid').choices(['approved', 'attempted']))
    .option('--coordinator <id>', "a coordinator's staff id, or me")
    .option('-o, --out <file>', 'write to this file (default: standard output)')
    .action(async (o) => {
      const csv = await download(env, routes.paymentExport, { query: { ...reportQuery(o), status: o.status } });
      if (o.out) {
        fs.writeFileSync(o.out, csv, { mode: 0o600 });
        const rows = csv.toString('utf8').split('\r\n').filter(Boolean).length - 1;
        console.error(`Saved ${o.out} (${rows} payments)`);
      } else process.stdout.write(csv);
    });
}
