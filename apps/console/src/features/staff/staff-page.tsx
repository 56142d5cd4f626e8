import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../shared/components/page-title';

export function StaffPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('staff.title')}</PageTitle>;
}
