/**
 * Progress bar (spec screen 9): one circle per step of the link's step list, numbered from 1. A step whose status
 * id is 4 shows as completed; every other step shows as active. The step of the current route is marked
 * aria-current="step". Fixed interface: <ProgressBar steps? currentRoutePath? /> (defaults: the store's step list and
 * the current location). <PageLayout showProgress> renders it.
 */
import { useLocation } from '../lib/router';
import { useTranslation } from '../i18n';
import { StepStatus, type LinkStep } from '@paylink/shared';
import { useAppSelector } from '../store/hooks';
import { selectSteps } from '../store/step-production-slice';

export function ProgressBar(props: { steps?: LinkStep[]; currentRoutePath?: string }) {
  const { t } = useTranslation();
  const stored = useAppSelector(selectSteps);
  const location = useLocation();
  const steps = props.steps ?? stored;
  const current = props.currentRoutePath ?? location.pathname;
  if (steps.length === 0) return null;
  return (
    <nav className="progress-steps" aria-label={t('progress.label')}>
      <ol>
        {steps.map((step, i) => {
          const done = step.linkStepStatusId === StepStatus.Completed;
          const isCurrent = step.routePath === current;
          const n = i + 1;
          return (
            <li
              key={step.linkStepId}
              className={`progress-step ${done ? 'is-completed' : 'is-active'} ${isCurrent ? 'is-current' : ''}`}
              aria-current={isCurrent ? 'step' : undefined}
            >
              <span className="progress-circle" aria-hidden="true">
                {n}
              </span>
              <span className="visually-hidden">
                {/* Each step says its name and whether it is done, current or still to do (issue 16, 10c). */}
                {t(
                  done
                    ? 'progress.stepNamedCompleted'
                    : isCurrent
                      ? 'progress.stepNamedCurrent'
                      : 'progress.stepNamedTodo',
                  {
                    number: n,
                    total: steps.length,
                    name: t(`progress.names.${step.routePath}`, {
                      defaultValue: t('progress.stepActive', { number: n, total: steps.length }),
                    }),
                  },
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
