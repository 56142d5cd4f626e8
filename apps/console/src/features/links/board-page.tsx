import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../shared/components/page-title';

export function BoardPage() {
  const { t } = useTranslation();
  return <PageTitle>{t('board.title')}</PageTitle>;
}
