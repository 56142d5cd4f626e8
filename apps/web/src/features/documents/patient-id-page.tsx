import { StepRoutes } from '@paylink/shared';
import { DocumentStepPage } from './document-step-page';

export default function PatientIdPage() {
  return <DocumentStepPage kind="patientId" routePath={StepRoutes.patientId} />;
}
