import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../shared/components/page-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t('notFound.title')}</PageTitle>
      <p>{t('notFound.body')}</p>
      <Link to="/">{t('notFound.home')}</Link>
    </>
  );
}
