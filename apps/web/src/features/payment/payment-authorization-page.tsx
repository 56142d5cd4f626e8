// Placeholder so the build stays green; W2 replaces this file with the real page.
import { useTranslation } from 'react-i18next';
import { PageLayout } from '../../components/page-layout';

export default function PlaceholderPage() {
  const { t } = useTranslation();
  return <PageLayout title={t('loading')} showProgress />;
}
