import { useEffect, useId, useState } from 'react';
import { useFieldArray, useForm, useWatch, type Control, type FieldErrors } from 'react-hook-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/client';
import {
  consoleEndpoints,
  planEveryValues,
  planTemplatesBodySchema,
  type PlanEvery,
  type PlanTemplate,
  type PlanTemplatesResult,
} from '../../shared/api/contract';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { FormField } from '../../shared/forms/form-field';
import { BusyButton } from '../../shared/components/busy-button';

export const PLAN_TEMPLATES_KEY = ['plan-templates'];
/** The console's words for a refused field (the shared schema's messages are English and name the API field). */
const MESSAGES: Record<string, string> = {
  daysBeforeSurgery: 'planConsole.templates.invalidDays',
  firstDueAfterDays: 'planConsole.templates.invalidDays',
  count: 'planConsole.templates.invalidCount',
  name: 'planConsole.templates.invalidName',
};

/** One default plan as the form holds it (every input is text; both shapes' fields kept while the kind changes). */
export interface TemplateRow {
  name: string;
  kind: 'single' | 'installments';
  daysBeforeSurgery: string;
  count: string;
  every: PlanEvery;
  firstDueAfterDays: string;
}
interface FormValues {
  templates: TemplateRow[];
}

const NEW_ROW: TemplateRow = {
  name: '',
  kind: 'single',
  daysBeforeSurgery: '21',
  count: '3',
  every: 'month',
  firstDueAfterDays: '30',
};

export function toTemplateRow(t: PlanTemplate): TemplateRow {
  return t.kind === 'single'
    ? { ...NEW_ROW, name: t.name ?? '', kind: 'single', daysBeforeSurgery: String(t.daysBeforeSurgery) }
    : {
        ...NEW_ROW,
        name: t.name ?? '',
        kind: 'installments',
        count: String(t.count),
        every: t.every,
        firstDueAfterDays: String(t.firstDueAfterDays),
      };
}

/** The form → PUT /api/admin/settings/plans' body; numbers as typed (the shared schema refuses what is not whole). */
export function toTemplatesBody(v: FormValues) {
  const num = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
  return {
    templates: v.templates.map((r) => {
      const name = r.name.trim() === '' ? null : r.name.trim();
      return r.kind === 'single'
        ? { name, kind: 'single' as const, daysBeforeSurgery: num(r.daysBeforeSurgery) }
        : {
            name,
            kind: 'installments' as const,
            count: num(r.count),
            every: r.every,
            firstDueAfterDays: num(r.firstDueAfterDays),
          };
    }),
  };
}

/** The practice's default plans (admins edit; decision 0212). */
export function PlanTemplatesSection() {
  const { t } = useTranslation();
  const headingId = useId();
  const list = useQuery({
    queryKey: PLAN_TEMPLATES_KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.planTemplates, { signal }),
  });
  return (
    <section className="card mt-4" aria-labelledby={headingId}>
      <div className="card-body">
        <h2 id={headingId} className="h5">
          {t('planConsole.templates.title')}
        </h2>
        <p>{t('planConsole.templates.intro')}</p>
        {list.isPending ? (
          <Loading />
        ) : list.error ? (
          <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <TemplatesForm data={list.data} />
        )}
      </div>
    </section>
  );
}

function TemplatesForm(props: { data: PlanTemplatesResult }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [saved, setSaved] = useState(false);
  const values = (d: PlanTemplatesResult): FormValues => ({ templates: d.templates.map(toTemplateRow) });
  const form = useForm<FormValues>({
    defaultValues: values(props.data),
    resolver: async (v) => {
      const parsed = planTemplatesBodySchema.safeParse(toTemplatesBody(v));
      if (parsed.success) return { values: v, errors: {} };
      const errors: Record<string, Record<string, { type: string; message: string }>> = {};
      for (const i of parsed.error.issues) {
        const [, index, field] = i.path;
        if (typeof index !== 'number') continue;
        const row = (errors[index] ??= {});
        const name = String(field ?? 'kind');
        row[name] ??= { type: i.code, message: t(MESSAGES[name] ?? 'planConsole.templates.invalid') };
      }
      return { values: {}, errors: { templates: errors } as FieldErrors<FormValues> };
    },
  });
  const { reset } = form;
  useEffect(() => reset(values(props.data)), [props.data, reset]);
  const rows = useFieldArray({ control: form.control, name: 'templates' });
  const save = useMutation({
    mutationFn: (v: FormValues) => call(consoleEndpoints.updatePlanTemplates, { body: toTemplatesBody(v) }),
    onSuccess: (d) => {
      setSaved(true);
      queryClient.setQueryData(PLAN_TEMPLATES_KEY, d);
    },
  });
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
        {props.data.source === 'practice'
          ? t('planConsole.templates.sourcePractice')
          : t('planConsole.templates.sourceDefault')}
      </p>
      {rows.fields.length === 0 && <p>{t('planConsole.templates.empty')}</p>}
      {rows.fields.map((f, i) => (
        <TemplateFields key={f.id} index={i} control={form.control} form={form} onRemove={() => rows.remove(i)} />
      ))}
      <div aria-live="polite">
        {saved && (
          <div className="alert alert-success" role="status">
            {t('planConsole.templates.saved')}
          </div>
        )}
        {save.error && (
          <div className="alert alert-danger" role="alert">
            {errorMessage(save.error)}
          </div>
        )}
      </div>
      <div className="d-flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-outline-secondary"
          disabled={rows.fields.length >= 20}
          onClick={() => rows.append({ ...NEW_ROW })}
        >
          {t('planConsole.templates.add')}
        </button>
        <BusyButton type="submit" className="btn btn-primary" busy={save.isPending}>
          {t('planConsole.templates.save')}
        </BusyButton>
      </div>
    </form>
  );
}

function TemplateFields(props: {
  index: number;
  control: Control<FormValues>;
  form: ReturnType<typeof useForm<FormValues>>;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { index: i, form } = props;
  const kind = useWatch({ control: props.control, name: `templates.${i}.kind` });
  const errors = form.formState.errors.templates?.[i];
  const field = (k: 'name' | 'daysBeforeSurgery' | 'count' | 'firstDueAfterDays', label: string, col: string) => (
    <FormField
      name={`template_${i}_${k}`}
      label={label}
      error={errors?.[k]}
      hint={k === 'name' ? t('planConsole.templates.nameHint') : undefined}
      className={`${col} mb-3`}
      registration={form.register(`templates.${i}.${k}`)}
      type={k === 'name' ? 'text' : 'number'}
      autoComplete="off"
    />
  );
  return (
    <fieldset className="row border rounded p-2 mx-0 mb-3">
      <legend className="fs-6 float-none w-auto px-1 mb-0">{t('planConsole.templates.planLabel', { n: i + 1 })}</legend>
      {field('name', t('planConsole.templates.name'), 'col-md-6')}
      <FormField
        name={`template_${i}_kind`}
        label={t('planConsole.templates.kind')}
        error={errors?.kind}
        className="col-md-6 mb-3"
        as="select"
        registration={form.register(`templates.${i}.kind`)}
      >
        <option value="single">{t('planConsole.templates.kindSingle')}</option>
        <option value="installments">{t('planConsole.templates.kindInstallments')}</option>
      </FormField>
      {kind === 'single' ? (
        field('daysBeforeSurgery', t('planConsole.templates.daysBeforeSurgery'), 'col-md-6')
      ) : (
        <>
          {field('count', t('planConsole.templates.count'), 'col-6 col-md-3')}
          <FormField
            name={`template_${i}_every`}
            label={t('planConsole.templates.every')}
            error={errors?.every}
            className="col-6 col-md-3 mb-3"
            as="select"
            registration={form.register(`templates.${i}.every`)}
          >
            {planEveryValues.map((e) => (
              <option key={e} value={e}>
                {t(`newLink.planEvery_${e}`)}
              </option>
            ))}
          </FormField>
          {field('firstDueAfterDays', t('planConsole.templates.firstDueAfterDays'), 'col-md-6')}
        </>
      )}
      <div className="col-12 mb-2">
        <button type="button" className="btn btn-link btn-sm text-danger p-0" onClick={props.onRemove}>
          {t('planConsole.templates.remove')}
        </button>
      </div>
    </fieldset>
  );
}
