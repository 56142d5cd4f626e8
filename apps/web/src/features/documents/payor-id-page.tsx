import { StepRoutes } from '@paylink/shared';
import { DocumentStepPage } from './document-step-page';

export default function PayorIdPage() {
  return <DocumentStepPage kind="payorId" routePath={StepRoutes.payorId} />;
}
