import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import { consoleEndpoints } from '../../shared/api/contract';
import { PageTitle } from '../../shared/components/page-title';
import { ErrorAlert, Loading } from '../../shared/components/query-state';
import { TableScroll } from '../../shared/components/table-scroll';
import { formatDateTime, formatPhone } from '../../shared/lib/format';

/** Phone numbers and e-mail addresses that asked for no more link sends or reminders (every staff role may see it). */
export function OptOutsPage() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: ['opt-outs'],
    queryFn: ({ signal }) => call(consoleEndpoints.optOuts, { signal }),
  });
  return (
    <>
      <PageTitle>{t('optOuts.title')}</PageTitle>
      <p>{t('optOuts.intro')}</p>
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.optOuts.length === 0 ? (
        <p>{t('optOuts.none')}</p>
      ) : (
        <TableScroll label={t('optOuts.title')}>
          <table className="table table-sm align-middle">
            <thead>
              <tr>
                <th scope="col">{t('optOuts.address')}</th>
                <th scope="col">{t('optOuts.channel')}</th>
                <th scope="col">{t('optOuts.how')}</th>
                <th scope="col">{t('optOuts.when')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.optOuts.map((o) => (
                <tr key={`${o.channel}:${o.address}`}>
                  <td className="text-break">{o.channel === 'sms' ? formatPhone(o.address) : o.address}</td>
                  <td>{o.channel === 'sms' ? 'SMS' : t('optOuts.email')}</td>
                  <td>
                    {o.keyword
                      ? t('optOuts.byKeyword', { keyword: o.keyword })
                      : o.source.startsWith('email-')
                        ? t('optOuts.byUnsubscribe')
                        : o.source}
                  </td>
                  <td>
                    <time dateTime={o.optedOutAt}>{formatDateTime(o.optedOutAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
