import { StepRoutes } from '@paylink/shared';
import { DocumentStepPage } from './document-step-page';

export default function InvoicePage() {
  return <DocumentStepPage kind="invoice" routePath={StepRoutes.invoice} />;
}
