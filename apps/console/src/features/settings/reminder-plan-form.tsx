import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, type AnswerOf } from '../../shared/api/client';
import { consoleEndpoints, reminderPlanSchema, type ReminderPlanSetting } from '../../shared/api/contract';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { FormField } from '../../shared/forms/form-field';
import { BusyButton } from '../../shared/components/busy-button';

type PlanResult = AnswerOf<typeof consoleEndpoints.reminderPlan>;
export interface PlanFormValues {
  unopenedAfter: string;
  stalledAfter: string;
  beforeExpiry: string;
  quietOn: boolean;
  quietStart: string;
  quietEnd: string;
  minGap: string;
}
const KEY = ['reminder-plan'];
const HOURS = Array.from({ length: 24 }, (_, h) => h);

export function toPlanForm(p: ReminderPlanSetting): PlanFormValues {
  return {
    unopenedAfter: p.unopenedAfter ?? '',
    stalledAfter: p.stalledAfter ?? '',
    beforeExpiry: p.beforeExpiry.join(', '),
    quietOn: p.quietHours !== null,
    quietStart: String(p.quietHours?.start ?? 21),
    quietEnd: String(p.quietHours?.end ?? 8),
    minGap: p.minGap ?? '',
  };
}

/** The form → PUT /api/admin/messaging/reminder-plan's body: an empty duration turns that reminder off (null). */
export function toPlanBody(v: PlanFormValues): ReminderPlanSetting {
  const d = (s: string) => (s.trim() === '' ? null : s.trim().toLowerCase());
  return {
    unopenedAfter: d(v.unopenedAfter),
    stalledAfter: d(v.stalledAfter),
    beforeExpiry: v.beforeExpiry
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    quietHours: v.quietOn ? { start: Number(v.quietStart), end: Number(v.quietEnd) } : null,
    minGap: d(v.minGap),
  };
}

/** The practice's reminder plan (admins; docs/messaging.md). */
export function ReminderPlanSection() {
  const { t } = useTranslation();
  const headingId = useId();
  const plan = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.reminderPlan, { signal }),
  });
  return (
    <section className="card mt-4" aria-labelledby={headingId}>
      <div className="card-body">
        <h2 id={headingId} className="h5">
          {t('reminderPlan.title')}
        </h2>
        <p>{t('reminderPlan.intro')}</p>
        {plan.isPending ? (
          <Loading />
        ) : plan.error ? (
          <ErrorAlert error={plan.error} onRetry={() => void plan.refetch()} />
        ) : (
          <PlanForm data={plan.data} />
        )}
      </div>
    </section>
  );
}

function PlanForm(props: { data: PlanResult }) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [saved, setSaved] = useState(false);
  const form = useForm<PlanFormValues>({
    defaultValues: toPlanForm(props.data),
    resolver: async (v) => {
      const parsed = reminderPlanSchema.safeParse(toPlanBody(v));
      if (parsed.success) return { values: v, errors: {} };
      const errors: Record<string, { type: string; message: string }> = {};
      for (const i of parsed.error.issues) {
        const k = i.path[0] === 'quietHours' ? 'quietEnd' : String(i.path[0]);
        errors[k] ??= {
          type: i.code,
          message: t(k === 'quietEnd' ? 'reminderPlan.quietInvalid' : 'reminderPlan.durationInvalid'),
        };
      }
      return { values: {}, errors };
    },
  });
  const { reset } = form;
  useEffect(() => reset(toPlanForm(props.data)), [props.data, reset]);
  const save = useMutation({
    mutationFn: (v: PlanFormValues) => call(consoleEndpoints.updateReminderPlan, { body: toPlanBody(v) }),
    onSuccess: (d) => {
      setSaved(true);
      queryClient.setQueryData(KEY, d);
    },
  });
  const { errors } = form.formState;
  const quietOn = useWatch({ control: form.control, name: 'quietOn' });
  const durationField = (k: 'unopenedAfter' | 'stalledAfter' | 'beforeExpiry' | 'minGap') => (
    <FormField
      key={k}
      name={`plan_${k}`}
      label={t(`reminderPlan.${k}`)}
      error={errors[k]}
      hint={t(`reminderPlan.${k}Hint`)}
      registration={form.register(k)}
      type="text"
      inputMode="text"
      autoComplete="off"
    />
  );
  return (
    <form
      noValidate
      onSubmit={(e) =>
        void form.handleSubmit((v) => {
          setSaved(false);
          save.mutate(v);
        })(e)
      }
    >
      <p className="small text-secondary">
        {props.data.source === 'practice' ? t('reminderPlan.sourcePractice') : t('reminderPlan.sourceEnv')}
      </p>
      {durationField('unopenedAfter')}
      {durationField('stalledAfter')}
      {durationField('beforeExpiry')}
      {durationField('minGap')}
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{t('reminderPlan.quietHours')}</legend>
        <div className="form-check mb-2">
          <input id={`${id}-quiet`} type="checkbox" className="form-check-input" {...form.register('quietOn')} />
          <label htmlFor={`${id}-quiet`} className="form-check-label">
            {t('reminderPlan.quietOn')}
          </label>
        </div>
        {quietOn && (
          <div className="row g-2">
            <div className="col-6 col-sm-4">
              <label htmlFor={`${id}-start`} className="form-label small">
                {t('reminderPlan.quietStart')}
              </label>
              <select id={`${id}-start`} className="form-select" {...form.register('quietStart')}>
                {HOURS.map((h) => (
                  <option key={h} value={h}>{`${h}:00`}</option>
                ))}
              </select>
            </div>
            <div className="col-6 col-sm-4">
              <label htmlFor={`${id}-end`} className="form-label small">
                {t('reminderPlan.quietEnd')}
              </label>
              <select
                id={`${id}-end`}
                className={`form-select ${errors.quietEnd ? 'is-invalid' : ''}`}
                aria-invalid={errors.quietEnd ? true : undefined}
                aria-describedby={errors.quietEnd ? `${id}-end-error` : undefined}
                {...form.register('quietEnd')}
              >
                {HOURS.map((h) => (
                  <option key={h} value={h}>{`${h}:00`}</option>
                ))}
              </select>
            </div>
            {errors.quietEnd && (
              <div id={`${id}-end-error`} className="invalid-feedback d-block">
                {errors.quietEnd.message}
              </div>
            )}
          </div>
        )}
        <div className="form-text">{t('reminderPlan.quietHint')}</div>
      </fieldset>
      <div aria-live="polite">
        {saved && (
          <div className="alert alert-success" role="status">
            {t('reminderPlan.saved')}
          </div>
        )}
        {save.error && (
          <div className="alert alert-danger" role="alert">
            {errorMessage(save.error)}
          </div>
        )}
      </div>
      <BusyButton type="submit" className="btn btn-primary" busy={save.isPending}>
        {t('reminderPlan.save')}
      </BusyButton>
    </form>
  );
}
