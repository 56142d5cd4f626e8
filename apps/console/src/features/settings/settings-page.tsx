import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../shared/components/page-title';

export function SettingsPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('settings.title')}</PageTitle>;
}
