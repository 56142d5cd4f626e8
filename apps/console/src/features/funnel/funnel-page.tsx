import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../shared/components/page-title';

export function FunnelPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('funnel.title')}</PageTitle>;
}
