import { call } from '../../shared/api/client';
import { consoleEndpoints } from '../../shared/api/contract';

// The practice's actions on a link's plan (decision 0210); each answers the plan afterwards.
export type PlanAction =
  | { kind: 'pause' | 'resume' | 'cancel'; reason?: string }
  | { kind: 'reschedule'; n: number; dueOn: string; reason?: string }
  | { kind: 'charge'; n: number; reason?: string }
  | { kind: 'refund'; n: number; amount?: number; reason: string };

export function runPlanAction(linkId: string, a: PlanAction) {
  const reason = a.reason || undefined;
  switch (a.kind) {
    case 'pause':
      return call(consoleEndpoints.pausePlan, { params: { id: linkId }, body: { reason } });
    case 'resume':
      return call(consoleEndpoints.resumePlan, { params: { id: linkId }, body: { reason } });
    case 'cancel':
      return call(consoleEndpoints.cancelPlan, { params: { id: linkId }, body: { reason } });
    case 'reschedule':
      return call(consoleEndpoints.rescheduleInstallment, {
        params: { id: linkId, n: a.n },
        body: { dueOn: a.dueOn, reason },
      });
    case 'charge':
      return call(consoleEndpoints.chargeInstallment, { params: { id: linkId, n: a.n }, body: { reason } });
    case 'refund':
      return call(consoleEndpoints.refundInstallment, {
        params: { id: linkId, n: a.n },
        body: { amount: a.amount, reason: a.reason },
      });
  }
}
