import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../shared/components/page-title';

export function PaymentsPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('payments.title')}</PageTitle>;
}
