import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConsoleLinkDetail } from '../../shared/api/contract';
import { formatDateTime, formatDay, formatMoney } from '../../shared/lib/format';

type HistoryEvent = ConsoleLinkDetail['planHistory'][number];

/**
 * What happened to each instalment (notices, declines with the gateway's words and the next try, payments with the
 * transaction id, the practice's actions), oldest first, one collapsible list per instalment that has any.
 */
export function InstallmentHistory(props: { history: HistoryEvent[] }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const byN = new Map<number, HistoryEvent[]>();
  for (const e of props.history) byN.set(e.n, [...(byN.get(e.n) ?? []), e]);
  if (byN.size === 0) return null;
  const describe = (e: HistoryEvent) => {
    const key = `planConsole.history.events.${e.action.replace(/^installment\./, '')}`;
    const text = i18n.exists(key)
      ? t(key, {
          dueOn: formatDay(e.dueOn),
          attempts: e.attempts ?? '',
          reason: e.reason ?? '',
          next: formatDateTime(e.nextAttemptAt),
          amount: e.amount === null ? '' : formatMoney(e.amount),
          txn: e.transactionId ?? '',
        })
      : t('planConsole.history.other', { action: e.action });
    return e.by ? `${text} (${t('planConsole.history.by', { who: e.by })})` : text;
  };
  return (
    <section className="mt-3" aria-labelledby={id} data-testid="installment-history">
      <h3 id={id} className="h6">
        {t('planConsole.history.title')}
      </h3>
      {[...byN.entries()]
        .sort(([a], [b]) => a - b)
        .map(([n, events]) => (
          <details key={n} className="small mb-1">
            <summary>{t('planConsole.history.installment', { n })}</summary>
            <ol className="list-unstyled ms-3 mb-1">
              {events.map((e, i) => (
                <li key={i}>
                  <time dateTime={e.at} className="text-secondary me-2">
                    {formatDateTime(e.at)}
                  </time>
                  {describe(e)}
                </li>
              ))}
            </ol>
          </details>
        ))}
    </section>
  );
}
