import { StepRoutes } from '@paylink/shared';
import { DocumentStepPage } from './document-step-page';

export default function ContractPage() {
  return <DocumentStepPage kind="contract" routePath={StepRoutes.contract} />;
}
