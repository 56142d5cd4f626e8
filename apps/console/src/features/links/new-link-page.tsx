import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../shared/components/page-title';

export function NewLinkPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('newLink.title')}</PageTitle>;
}
