import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../shared/components/page-title';

export function LinkDetailPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('detail.title')}</PageTitle>;
}
