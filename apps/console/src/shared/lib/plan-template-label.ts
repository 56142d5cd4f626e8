import type { TFunction } from 'i18next';
import type { PlanTemplate } from '../api/contract';

/** A default plan's name: the practice's own, else one made from its shape in the reader's language. */
export function planTemplateLabel(t: TFunction, p: PlanTemplate): string {
  if (p.name) return p.name;
  return p.kind === 'single'
    ? t('planConsole.templates.autoSingle', { days: p.daysBeforeSurgery })
    : t(`planConsole.templates.autoInstallments_${p.every}`, { count: p.count });
}
