import { useState } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  createLinkBodySchema,
  isoDateInZone,
  parseTypedDollarsToCents,
  planEveryValues,
  planFieldsFromTemplate,
  type PlanEvery,
  type PlanTemplate,
} from '@paylink/shared';
import { ApiError, call } from '../../shared/api/client';
import { consoleEndpoints } from '../../shared/api/contract';
import { planTemplateLabel } from '../../shared/lib/plan-template-label';
import { FormField } from '../../shared/forms/form-field';
import { PageTitle } from '../../shared/components/page-title';
import { useErrorMessage } from '../../shared/components/query-state';
import { useFocusWhen } from '../../shared/lib/focus';
import { createLink } from './link-actions-api';
import { SendPanel } from './send-panel';
import { BusyButton } from '../../shared/components/busy-button';

interface FormValues {
  firstName: string;
  lastName: string;
  phone: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  hasPayor: boolean;
  payorName: string;
  payorEmail: string;
  isPaymentLinkLocked: boolean;
  signInMethod: '' | 'sms' | 'email';
  language: 'en' | 'es';
  expiresIn: string;
  procedureDescription: string;
  /** The payment plan (issue 28): none, one balance charge, or instalments. */
  planKind: '' | 'single' | 'installments';
  planTotal: string;
  planDueOn: string;
  planCount: string;
  planEvery: PlanEvery;
  planFirstDueOn: string;
}

const EMPTY: FormValues = {
  firstName: '',
  lastName: '',
  phone: '',
  email: '',
  address: '',
  city: '',
  state: '',
  zipCode: '',
  hasPayor: false,
  payorName: '',
  payorEmail: '',
  isPaymentLinkLocked: false,
  signInMethod: '',
  language: 'en',
  expiresIn: '',
  procedureDescription: '',
  planKind: '',
  planTotal: '',
  planDueOn: '',
  planCount: '3',
  planEvery: 'month',
  planFirstDueOn: '',
};

/** The body's plan fields (`plan.total`, …) as the form names them. */
const PLAN_FIELDS: Record<string, keyof FormValues> = {
  total: 'planTotal',
  dueOn: 'planDueOn',
  count: 'planCount',
  every: 'planEvery',
  firstDueOn: 'planFirstDueOn',
  kind: 'planKind',
};
/** A field of the request body (`email`, `plan.total`) → the form's field. */
const formField = (path: readonly PropertyKey[]): keyof FormValues | null => {
  const name = String(path[0] ?? '');
  if (name === 'plan') return PLAN_FIELDS[String(path[1] ?? 'kind')] ?? 'planKind';
  return name in EMPTY ? (name as keyof FormValues) : null;
};

function planBody(v: FormValues) {
  if (!v.planKind) return {};
  const cents = parseTypedDollarsToCents(v.planTotal);
  // An unreadable total goes to the schema as NaN, which it refuses with the total's message.
  const total = cents === null ? Number.NaN : cents / 100;
  return v.planKind === 'single'
    ? { plan: { total, kind: 'single' as const, dueOn: v.planDueOn } }
    : {
        plan: {
          total,
          kind: 'installments' as const,
          count: Number(v.planCount),
          every: v.planEvery,
          firstDueOn: v.planFirstDueOn,
        },
      };
}

/** The form's values → the body of POST /api/admin/links (empty optional fields left out). */
export function toCreateLinkBody(v: FormValues) {
  const { hasPayor, payorName, payorEmail, signInMethod, expiresIn, ...withPlan } = v;
  // The plan's form fields become the body's `plan` (planBody).
  const {
    planKind: _kind,
    planTotal: _total,
    planDueOn: _dueOn,
    planCount: _count,
    planEvery: _every,
    planFirstDueOn: _firstDueOn,
    ...rest
  } = withPlan;
  return {
    ...rest,
    ...planBody(v),
    ...(hasPayor && payorName.trim() ? { payorName: payorName.trim() } : {}),
    ...(hasPayor && payorEmail.trim() ? { payorEmail: payorEmail.trim() } : {}),
    ...(signInMethod ? { signInMethod } : {}),
    ...(expiresIn.trim() ? { expiresIn: expiresIn.trim() } : {}),
  };
}

/** Validated with the server's own schema (createLinkBodySchema), after the same mapping the request uses. */
const resolver: Resolver<FormValues> = async (values) => {
  const parsed = createLinkBodySchema.safeParse(toCreateLinkBody(values));
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<FormValues> = {};
  for (const issue of parsed.error.issues) {
    const name = formField(issue.path);
    if (name && !errors[name]) errors[name] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors };
};

export function NewLinkPage() {
  const { t } = useTranslation();
  const [created, setCreated] = useState<{ id: string; url: string; values: FormValues } | null>(null);
  return (
    <>
      <PageTitle>{t('newLink.title')}</PageTitle>
      {/* Mounted before the link exists, so screen readers announce "Link created" when it appears. */}
      <div aria-live="polite">
        {created && (
          <div className="alert alert-success" role="status">
            {t('newLink.created', { name: `${created.values.firstName} ${created.values.lastName}` })}
          </div>
        )}
      </div>
      {created ? (
        <Created created={created} onAnother={() => setCreated(null)} />
      ) : (
        <NewLinkForm onCreated={setCreated} />
      )}
    </>
  );
}

function Created(props: { created: { id: string; url: string; values: FormValues }; onAnother: () => void }) {
  const { t } = useTranslation();
  const { id, url, values } = props.created;
  // "Create link" is gone with the form: focus goes to the result's heading (never <body>).
  const heading = useFocusWhen<HTMLHeadingElement>(id);
  return (
    <section className="card" aria-labelledby="created-heading">
      <div className="card-body">
        <h2 id="created-heading" ref={heading} tabIndex={-1} className="h5">
          {t('newLink.sendTitle')}
        </h2>
        <p className="mb-2">
          <span className="text-secondary">{t('newLink.url')}: </span>
          <code className="text-break" data-testid="link-url">
            {url}
          </code>
        </p>
        <SendPanel id={id} url={url} phone={values.phone} email={values.email} />
        <hr />
        <div className="d-flex flex-wrap gap-3">
          <Link to={`/links/${id}`}>{t('newLink.viewLink')}</Link>
          <button type="button" className="btn btn-link p-0" onClick={props.onAnother}>
            {t('newLink.another')}
          </button>
        </div>
      </div>
    </section>
  );
}

function NewLinkForm(props: { onCreated: (c: { id: string; url: string; values: FormValues }) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const failureRef = useFocusWhen<HTMLDivElement>(failure);
  const form = useForm<FormValues>({
    resolver,
    defaultValues: EMPTY,
  });
  const { register, formState } = form;
  const { errors, isSubmitting } = formState;
  const hasPayor = useWatch({ control: form.control, name: 'hasPayor' });
  const planKind = useWatch({ control: form.control, name: 'planKind' });

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const res = await createLink(toCreateLinkBody(values));
      void queryClient.invalidateQueries({ queryKey: ['board'] });
      props.onCreated({ id: res.id, url: res.url, values });
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && Object.keys(e.fields).length) {
        for (const [path, message] of Object.entries(e.fields)) {
          const name = formField(path.split('.'));
          if (name) form.setError(name, { type: 'server', message });
        }
      }
      setFailure(errorMessage(e));
    }
  });

  const text = (
    name: keyof FormValues,
    label: string,
    opts: { type?: string; autoComplete?: string; hint?: string; col?: string } = {},
  ) => (
    <FormField
      name={name}
      label={label}
      error={errors[name]}
      hint={opts.hint}
      className={`${opts.col ?? 'col-md-6'} mb-3`}
      registration={register(name)}
      type={opts.type ?? 'text'}
      autoComplete={opts.autoComplete ?? 'off'}
    />
  );

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="card">
      <div className="card-body">
        <fieldset className="row">
          <legend className="h5">{t('newLink.patient')}</legend>
          {text('firstName', t('newLink.firstName'))}
          {text('lastName', t('newLink.lastName'))}
          {text('phone', t('newLink.phone'), { type: 'tel' })}
          {text('email', t('newLink.email'), { type: 'email' })}
          {text('address', t('newLink.address'), { col: 'col-12' })}
          {text('city', t('newLink.city'), { col: 'col-md-5' })}
          {text('state', t('newLink.state'), { col: 'col-6 col-md-3' })}
          {text('zipCode', t('newLink.zipCode'), { col: 'col-6 col-md-4' })}
          <FormField
            name="procedure"
            label={t('newLink.procedure')}
            error={errors.procedureDescription}
            className="col-12 mb-3"
            as="textarea"
            registration={register('procedureDescription')}
            rows={2}
          />
        </fieldset>

        <fieldset className="row">
          <legend className="h5">{t('newLink.payorSection')}</legend>
          <div className="col-12 mb-3 form-check ms-2">
            <input {...register('hasPayor')} type="checkbox" className="form-check-input" id="has-payor" />
            <label className="form-check-label" htmlFor="has-payor">
              {t('newLink.payorToggle')}
            </label>
          </div>
          {hasPayor && (
            <>
              {text('payorName', t('newLink.payorName'))}
              {text('payorEmail', t('newLink.payorEmail'), { type: 'email' })}
            </>
          )}
        </fieldset>

        <fieldset className="row">
          <legend className="h5">{t('newLink.options')}</legend>
          <div className="col-12 mb-3 form-check ms-2">
            <input {...register('isPaymentLinkLocked')} type="checkbox" className="form-check-input" id="locked" />
            <label className="form-check-label" htmlFor="locked">
              {t('newLink.locked')}
            </label>
          </div>
          <FormField
            name="signInMethod"
            label={t('newLink.signInMethod')}
            error={errors.signInMethod}
            className="col-md-6 mb-3"
            as="select"
            registration={register('signInMethod')}
          >
            <option value="">{t('newLink.signInAuto')}</option>
            <option value="sms">{t('newLink.signInSms')}</option>
            <option value="email">{t('newLink.signInEmail')}</option>
          </FormField>
          <FormField
            name="language"
            label={t('newLink.language')}
            error={errors.language}
            className="col-md-6 mb-3"
            as="select"
            registration={register('language')}
          >
            <option value="en">English</option>
            <option value="es">Español</option>
          </FormField>
          {text('expiresIn', t('newLink.expiresIn'), { hint: t('newLink.expiresHint') })}
        </fieldset>

        <fieldset className="row">
          <legend className="h5">{t('newLink.planSection')}</legend>
          <FormField
            name="planKind"
            label={t('newLink.planKind')}
            error={errors.planKind}
            className="col-md-6 mb-3"
            as="select"
            registration={register('planKind')}
          >
            <option value="">{t('newLink.planNone')}</option>
            <option value="single">{t('newLink.planSingle')}</option>
            <option value="installments">{t('newLink.planInstallments')}</option>
          </FormField>
          <PlanTemplatePicker form={form} />
          {planKind && (
            <>
              {text('planTotal', t('newLink.planTotal'), { hint: t('newLink.planTotalHint'), autoComplete: 'off' })}
              {planKind === 'single' ? (
                text('planDueOn', t('newLink.planDueOn'), { type: 'date' })
              ) : (
                <>
                  {text('planCount', t('newLink.planCount'), { type: 'number', col: 'col-6 col-md-4' })}
                  <FormField
                    name="planEvery"
                    label={t('newLink.planEvery')}
                    error={errors.planEvery}
                    className="col-6 col-md-4 mb-3"
                    as="select"
                    registration={register('planEvery')}
                  >
                    {planEveryValues.map((e) => (
                      <option key={e} value={e}>
                        {t(`newLink.planEvery_${e}`)}
                      </option>
                    ))}
                  </FormField>
                  {text('planFirstDueOn', t('newLink.planFirstDueOn'), { type: 'date', col: 'col-md-4' })}
                </>
              )}
            </>
          )}
        </fieldset>

        {failure && (
          <div ref={failureRef} tabIndex={-1} className="alert alert-danger" role="alert">
            {failure}
          </div>
        )}
        <BusyButton type="submit" className="btn btn-primary" busy={isSubmitting}>
          {isSubmitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          {t('newLink.create')}
        </BusyButton>
      </div>
    </form>
  );
}

/**
 * The practice's default plans (decision 0212): picking one fills the plan's fields, which stay editable. A plan "N
 * days before the surgery date" asks for the surgery date to set the balance date; the link keeps only the balance
 * date. Today is the browser's date (the server checks the dates against the practice's).
 */
function PlanTemplatePicker(props: { form: ReturnType<typeof useForm<FormValues>> }) {
  const { t } = useTranslation();
  const { form } = props;
  const [chosen, setChosen] = useState<PlanTemplate | null>(null);
  const [surgeryDate, setSurgeryDate] = useState('');
  const list = useQuery({
    queryKey: ['plan-templates'],
    queryFn: ({ signal }) => call(consoleEndpoints.planTemplates, { signal }),
  });
  const templates = list.data?.templates ?? [];
  // Without default plans (or while they load, or if they cannot be read) the form is as before.
  if (templates.length === 0) return null;
  const today = isoDateInZone(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone);
  const apply = (tpl: PlanTemplate, surgery: string) => {
    const f = planFieldsFromTemplate(tpl, { today, surgeryDate: surgery });
    const opts = { shouldDirty: true } as const;
    form.setValue('planKind', f.kind, opts);
    if (f.kind === 'single') {
      if (f.dueOn) form.setValue('planDueOn', f.dueOn, opts);
    } else {
      form.setValue('planCount', String(f.count), opts);
      form.setValue('planEvery', f.every, opts);
      form.setValue('planFirstDueOn', f.firstDueOn, opts);
    }
  };
  return (
    <>
      <div className="col-md-6 mb-3">
        <label htmlFor="plan-template" className="form-label">
          {t('planConsole.picker.label')}
        </label>
        <select
          id="plan-template"
          className="form-select"
          aria-describedby="plan-template-hint"
          value={chosen ? String(templates.indexOf(chosen)) : ''}
          onChange={(e) => {
            const tpl = e.target.value === '' ? null : (templates[Number(e.target.value)] ?? null);
            setChosen(tpl);
            if (tpl) apply(tpl, surgeryDate);
          }}
        >
          <option value="">{t('planConsole.picker.none')}</option>
          {templates.map((tpl, i) => (
            <option key={i} value={i}>
              {planTemplateLabel(t, tpl)}
            </option>
          ))}
        </select>
        <div id="plan-template-hint" className="form-text">
          {t('planConsole.picker.hint')}
        </div>
      </div>
      {chosen?.kind === 'single' && (
        <div className="col-md-6 mb-3">
          <label htmlFor="plan-surgery-date" className="form-label">
            {t('planConsole.picker.surgeryDate')}
          </label>
          <input
            id="plan-surgery-date"
            type="date"
            className="form-control"
            aria-describedby="plan-surgery-hint"
            value={surgeryDate}
            onChange={(e) => {
              setSurgeryDate(e.target.value);
              apply(chosen, e.target.value);
            }}
          />
          <div id="plan-surgery-hint" className="form-text">
            {t('planConsole.picker.surgeryHint', { days: chosen.daysBeforeSurgery })}
          </div>
        </div>
      )}
    </>
  );
}
