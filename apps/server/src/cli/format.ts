import { printable, type LinkDetail, type LinkSummary, type StaffPayment } from '@paylink/shared';

const usd = (dollars: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars);
const when = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/:\d\d\.\d+Z$/, 'Z') : '-');

export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

function paymentText(p: StaffPayment | null): string {
  if (!p) return '-';
  const kind = p.paymentTypeId === 2 ? 'payment' : 'deposit';
  return `${usd(p.amount)} ${kind} (${p.status}${p.transactionId ? ` ${p.transactionId}` : ''})`;
}

export function linksTable(links: LinkSummary[]): string {
  return table([
    ['ID', 'STATUS', 'NAME', 'SIGN-IN', 'STEPS', 'PAYMENT', 'EXPIRES'],
    ...links.map((l) => [
      l.id,
      l.status,
      `${l.firstName} ${l.lastName}`,
      l.signInMethod,
      l.progress.total ? `${l.progress.completed}/${l.progress.total}` : '-',
      paymentText(l.payment),
      when(l.expiresAt),
    ]),
  ]);
}

function planText(p: NonNullable<LinkDetail['plan']>): string[] {
  const usd = (n: number) => `$${n.toFixed(2)}`;
  return [
    `Plan      total ${usd(p.total)}, balance ${usd(p.balance)}${p.deposit === null ? '' : `, deposit ${usd(p.deposit)}`} (${p.status})`,
    ...(p.projected ? ['          projected for the whole total until the deposit is paid'] : []),
    table(
      p.installments.map((i) => [
        `  ${i.n}.`,
        i.dueOn,
        usd(i.amount),
        // A sale with no answer yet (decision 0237): not to be charged again.
        i.chargeInProgress ? `${i.status} (sent to the gateway, answer not known yet)` : i.status,
      ]),
    ),
  ];
}

export function linkDetailText(l: LinkDetail): string {
  const lines = [
    `Link      ${l.id}  (${l.status})`,
    `URL       ${l.url}`,
    `Patient   ${l.firstName} ${l.lastName}, ${[l.address, l.city, l.state, l.zipCode].filter(Boolean).join(', ') || '-'}`,
    `Contact   phone ${l.phone || '-'}, e-mail ${l.email || '-'}  (signs in by ${l.signInMethod}, language ${l.language})`,
    `Payor     ${l.payorName || l.payorEmail ? `${l.payorName ?? ''} ${l.payorEmail ?? ''}`.trim() : '-'}`,
    `Locked    ${l.isPaymentLinkLocked ? 'yes (partial payment, 500-20000)' : 'no'}`,
    `Procedure ${l.procedureDescription || '-'}`,
    `Created   ${when(l.createdAt)}    Expires ${when(l.expiresAt)}`,
    `Payment   ${paymentText(l.payment)}`,
    ...(l.plan ? ['', ...planText(l.plan)] : []),
    '',
    'Steps',
    l.steps.length
      ? table(
          l.steps.map((s, i) => [
            `  ${i + 1}.`,
            s.routePath,
            s.linkStepStatusId === 4 ? 'completed' : s.linkStepStatusId === 2 ? 'in progress' : 'not started',
            when(s.completedAt),
          ]),
        )
      : '  (none yet: created when the patient submits patient information)',
    '',
    'Timeline',
    table(l.timeline.map((e) => [`  ${when(e.at)}`, e.actorType, e.action, e.ip ?? ''])),
  ];
  return lines.join('\n');
}

/**
 * Everything the CLI prints goes through here (issue 11, finding 4): patient- and staff-entered text could carry
 * escape sequences that clear the screen, retitle the window or plant OSC 8/52 links. Controls become `?`.
 */
export function forTerminal(text: string): string {
  return printable(text);
}

/** JSON output: JSON.stringify escapes C0 but not DEL, C1 or bidi overrides; those are escaped too (still valid JSON). */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
