import { useTranslation } from '../i18n';
import { PageLayout } from './page-layout';

/** A page that is one translated title, an optional hint line and optional actions (error and end-state pages). */
export function MessagePage(props: { titleKey: string; hintKey?: string; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <PageLayout title={t(props.titleKey)}>
      {props.hintKey && <p className="lead-hint">{t(props.hintKey)}</p>}
      {props.children}
    </PageLayout>
  );
}
