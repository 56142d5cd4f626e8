import { useTranslation } from 'react-i18next';

/** Previous / next with "26–50 of 312". */
export function Pager(props: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const from = props.total === 0 ? 0 : (props.page - 1) * props.pageSize + 1;
  const to = Math.min(props.total, props.page * props.pageSize);
  const last = Math.max(1, Math.ceil(props.total / props.pageSize));
  return (
    <nav className="d-flex align-items-center justify-content-between gap-2" aria-label={t('common.pages')}>
      <button
        type="button"
        className="btn btn-outline-primary btn-sm"
        disabled={props.page <= 1}
        onClick={() => props.onPage(props.page - 1)}
      >
        {t('common.previous')}
      </button>
      <span className="small">{t('common.page', { from, to, total: props.total })}</span>
      <button
        type="button"
        className="btn btn-outline-primary btn-sm"
        disabled={props.page >= last}
        onClick={() => props.onPage(props.page + 1)}
      >
        {t('common.next')}
      </button>
    </nav>
  );
}
