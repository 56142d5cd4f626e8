import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, type AnswerOf } from '../../shared/api/client';
import { consoleEndpoints, updatePracticeSettingsBodySchema } from '../../shared/api/contract';
import { PageTitle } from '../../shared/components/page-title';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { FormField } from '../../shared/forms/form-field';
import { formatDateTime } from '../../shared/lib/format';
import { ContractSection } from './contract-section';
import { ReminderPlanSection } from './reminder-plan-form';
import { PlanTemplatesSection } from './plan-templates-form';
import { BusyButton } from '../../shared/components/busy-button';

type SettingsResult = AnswerOf<typeof consoleEndpoints.settings>;
type Settings = SettingsResult['effective'];
type FormValues = { [K in keyof Settings]: string };
const FIELDS = ['name', 'phone', 'email', 'logoUrl', 'timeZone'] as const;

/** An empty field = back to the server's default (null); the server validates with the same shared schema. */
export function toSettingsBody(v: FormValues) {
  return Object.fromEntries(FIELDS.map((k) => [k, v[k].trim() === '' ? null : v[k].trim()]));
}

export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: ({ signal }) => call(consoleEndpoints.settings, { signal }),
  });
  return (
    <>
      <PageTitle>{t('settings.title')}</PageTitle>
      <p>{t('settings.intro')}</p>
      {settings.isPending ? (
        <Loading />
      ) : settings.error ? (
        <ErrorAlert error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <SettingsForm data={settings.data} />
      )}
      <ContractSection />
      <ReminderPlanSection />
      <PlanTemplatesSection />
    </>
  );
}

function SettingsForm(props: { data: SettingsResult }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [saved, setSaved] = useState(false);
  const values = (d: SettingsResult): FormValues =>
    Object.fromEntries(FIELDS.map((k) => [k, d.overrides[k] ?? ''])) as FormValues;
  const form = useForm<FormValues>({
    defaultValues: values(props.data),
    resolver: async (v) => {
      const parsed = updatePracticeSettingsBodySchema.safeParse(toSettingsBody(v));
      if (parsed.success) return { values: v, errors: {} };
      const errors: Record<string, { type: string; message: string }> = {};
      for (const i of parsed.error.issues) errors[String(i.path[0])] ??= { type: i.code, message: i.message };
      return { values: {}, errors };
    },
  });
  const { reset } = form;
  useEffect(() => reset(values(props.data)), [props.data, reset]);
  const save = useMutation({
    mutationFn: (v: FormValues) => call(consoleEndpoints.updateSettings, { body: toSettingsBody(v) }),
    onSuccess: (d) => {
      setSaved(true);
      queryClient.setQueryData(['settings'], d);
    },
  });
  const { errors } = form.formState;
  const label: Record<(typeof FIELDS)[number], string> = {
    name: t('settings.name'),
    phone: t('settings.phone'),
    email: t('settings.email'),
    logoUrl: t('settings.logoUrl'),
    timeZone: t('settings.timeZone'),
  };
  return (
    <form
      className="card"
      noValidate
      onSubmit={(e) =>
        void form.handleSubmit((v) => {
          setSaved(false);
          save.mutate(v);
        })(e)
      }
    >
      <div className="card-body">
        {FIELDS.map((k) => (
          <FormField
            key={k}
            name={`settings_${k}`}
            label={label[k]}
            error={errors[k]}
            hint={t('settings.fromEnv', { value: props.data.defaults[k] || '—' })}
            registration={form.register(k)}
            type={k === 'email' ? 'email' : k === 'phone' ? 'tel' : 'text'}
          />
        ))}
        {props.data.effective.logoUrl && (
          <p>
            <img src={props.data.effective.logoUrl} alt={t('settings.logoPreview')} height={48} />
          </p>
        )}
        {props.data.updatedAt && (
          <p className="small text-secondary">
            {t('settings.updatedAt', { when: formatDateTime(props.data.updatedAt) })}
          </p>
        )}
        <div aria-live="polite">
          {saved && (
            <div className="alert alert-success" role="status">
              {t('settings.saved')}
            </div>
          )}
          {save.error && (
            <div className="alert alert-danger" role="alert">
              {errorMessage(save.error)}
            </div>
          )}
        </div>
        <BusyButton type="submit" className="btn btn-primary" busy={save.isPending}>
          {t('common.save')}
        </BusyButton>
      </div>
    </form>
  );
}
