import { useTranslation } from 'react-i18next';
import { PageLayout } from '../../components/page-layout';

export default function PatientInfoPage() {
  const { t } = useTranslation();
  return <PageLayout title={t('patientInfo.title')}>{t('loading')}</PageLayout>;
}
