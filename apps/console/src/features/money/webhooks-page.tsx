import { useId, useState } from 'react';
import { useForm, type FieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { call } from '../../shared/api/client';
import {
  consoleEndpoints,
  webhookEventTypeSchema,
  webhookEventTypes,
  type WebhookEndpoint as Endpoint,
  type WebhookEventType,
} from '../../shared/api/contract';
import { ConfirmDialog } from '../../shared/components/confirm-dialog';
import { PageTitle } from '../../shared/components/page-title';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { TableScroll } from '../../shared/components/table-scroll';
import { FormField } from '../../shared/forms/form-field';
import { ShownOnceSecret } from '../../shared/components/shown-once-secret';
import { formatDateTime } from '../../shared/lib/format';
import { useCan } from '../../shared/session/use-session';
import { newIdempotencyKey } from './money-api';
import { BusyButton } from '../../shared/components/busy-button';

const KEY = ['webhooks'];
/** Every change carries a new Idempotency-Key: a double click does it once. */
const once = () => ({ 'Idempotency-Key': newIdempotencyKey() });

/** Admin: outbound webhook endpoints — register, secret shown once, rotate, deliveries, replay, delete. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const can = useCan();
  const list = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.webhooks, { signal }),
    enabled: can('webhooks.manage'),
  });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  if (!can('webhooks.manage')) {
    return (
      <>
        <PageTitle>{t('money.webhooks.title')}</PageTitle>
        <div className="alert alert-warning">{t('errors.forbidden')}</div>
      </>
    );
  }
  return (
    <>
      <PageTitle>{t('money.webhooks.title')}</PageTitle>
      <p>{t('money.webhooks.intro')}</p>
      <div aria-live="polite">{secret && <SecretOnce {...secret} onClose={() => setSecret(null)} />}</div>
      <CreateEndpoint onCreated={setSecret} />
      <h2 className="h5 mt-4">{t('money.webhooks.list')}</h2>
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.webhooks.length === 0 ? (
        <p className="text-secondary">{t('money.webhooks.empty')}</p>
      ) : (
        list.data.webhooks.map((w) => <EndpointCard key={w.id} endpoint={w} onSecret={setSecret} />)
      )}
    </>
  );
}

function SecretOnce(props: { url: string; secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <ShownOnceSecret
      title={
        <>
          {t('money.webhooks.secretTitle')} · <span className="text-break">{props.url}</span>
        </>
      }
      help={t('money.webhooks.secretOnce')}
      secret={props.secret}
      closeLabel={t('common.close')}
      onClose={props.onClose}
      testId="webhook-secret"
    />
  );
}

interface WebhookForm {
  url: string;
  description: string;
  events: WebhookEventType[];
}
const NEW_ENDPOINT: WebhookForm = { url: '', description: '', events: ['payment.approved', 'payment.refunded'] };

/**
 * The console asks for an http(s) URL with a host and at least one event; the server checks the rest with
 * createWebhookBodySchema (https only in production). Messages are keys under money.webhooks.
 */
const webhookFormSchema = z.object({
  url: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/]+/i, 'urlInvalid'),
  description: z.string(),
  events: z.array(webhookEventTypeSchema).min(1, 'eventsRequired'),
});

/** The form → POST /api/admin/webhooks's body (an empty description left out). */
export function toWebhookBody(v: WebhookForm) {
  const description = v.description.trim();
  return { url: v.url.trim(), events: v.events, ...(description ? { description } : {}) };
}

function CreateEndpoint(props: { onCreated: (s: { url: string; secret: string }) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const form = useForm<WebhookForm>({ resolver: zodResolver(webhookFormSchema), defaultValues: NEW_ENDPOINT });
  const { errors } = form.formState;
  const create = useMutation({
    mutationFn: (v: WebhookForm) => call(consoleEndpoints.createWebhook, { body: toWebhookBody(v), headers: once() }),
    onSuccess: async (w) => {
      props.onCreated({ url: w.url, secret: w.secret });
      // The events chosen stay for the next endpoint; the address and description start empty.
      form.reset({ ...NEW_ENDPOINT, events: form.getValues('events') });
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const message = (e: FieldError | undefined) => e && { ...e, message: t(`money.webhooks.${e.message}`) };
  return (
    <section aria-labelledby={id} className="card">
      <div className="card-body">
        <h2 id={id} className="h5">
          {t('money.webhooks.add')}
        </h2>
        <form
          noValidate
          onSubmit={(e) =>
            void form.handleSubmit((v) => {
              if (!create.isPending) create.mutate(v);
            })(e)
          }
        >
          <div className="row g-3">
            <FormField
              name="webhookUrl"
              label={t('money.webhooks.url')}
              hint={t('money.webhooks.urlHint')}
              error={message(errors.url)}
              className="col-md-7"
              registration={form.register('url')}
              type="url"
              inputMode="url"
              autoComplete="off"

              required
            />
            <FormField
              name="webhookDescription"
              label={t('money.webhooks.description')}
              className="col-md-5"
              registration={form.register('description')}
              maxLength={200}
            />
          </div>
          <fieldset className="mt-3" aria-describedby={errors.events ? `${id}-events-error` : undefined}>
            <legend className="form-label fs-6">{t('money.webhooks.events')}</legend>
            <div className="row row-cols-1 row-cols-sm-2 row-cols-lg-3 g-1">
              {webhookEventTypes.map((ev) => (
                <div className="col" key={ev}>
                  <div className="form-check">
                    <input
                      {...form.register('events')}
                      id={`${id}-${ev}`}
                      type="checkbox"
                      value={ev}
                      className="form-check-input"
                    />
                    <label htmlFor={`${id}-${ev}`} className="form-check-label">
                      <code>{ev}</code>
                    </label>
                  </div>
                </div>
              ))}
            </div>
            {errors.events && (
              <div id={`${id}-events-error`} className="invalid-feedback d-block">
                {t(`money.webhooks.${errors.events.message}`)}
              </div>
            )}
          </fieldset>
          {create.error && (
            <div className="alert alert-danger mt-3 mb-0" role="alert">
              {errorMessage(create.error)}
            </div>
          )}
          <BusyButton type="submit" className="btn btn-primary mt-3" busy={create.isPending}>
            {create.isPending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {t('money.webhooks.create')}
          </BusyButton>
        </form>
      </div>
    </section>
  );
}

function EndpointCard(props: { endpoint: Endpoint; onSecret: (s: { url: string; secret: string }) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const w = props.endpoint;
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [confirm, setConfirm] = useState<'rotate' | 'remove' | null>(null);
  const action = useMutation({
    mutationFn: async (what: 'rotate' | 'remove'): Promise<Endpoint & { secret?: string }> =>
      what === 'rotate'
        ? call(consoleEndpoints.rotateWebhookSecret, { params: { id: w.id }, headers: once() })
        : call(consoleEndpoints.deleteWebhook, { params: { id: w.id }, headers: once() }),
    onSuccess: async (r) => {
      setConfirm(null);
      if (r.secret) props.onSecret({ url: w.url, secret: r.secret });
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  return (
    <section className="card mb-3" aria-labelledby={id} data-testid="webhook-endpoint">
      <div className="card-body">
        <h3 id={id} className="h6 text-break mb-1">
          {w.url}
        </h3>
        {w.description && <p className="mb-1">{w.description}</p>}
        <p className="small text-secondary mb-2">
          {t('money.webhooks.created', { when: formatDateTime(w.createdAt) })}
          {w.secretRotatedAt ? ` · ${t('money.webhooks.rotated', { when: formatDateTime(w.secretRotatedAt) })}` : ''}
        </p>
        <p className="small mb-2">
          {w.events.map((e) => (
            <code key={e} className="me-2 d-inline-block">
              {e}
            </code>
          ))}
        </p>
        <div className="d-flex flex-wrap gap-2">
          <button
            type="button"
            className="btn btn-sm btn-outline-primary"
            aria-expanded={showDeliveries}
            aria-controls={`${id}-deliveries`}
            onClick={() => setShowDeliveries((v) => !v)}
          >
            {showDeliveries ? t('money.webhooks.hideDeliveries') : t('money.webhooks.showDeliveries')}
          </button>
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setConfirm('rotate')}>
            {t('money.webhooks.rotate')}
          </button>
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setConfirm('remove')}>
            {t('money.webhooks.remove')}
          </button>
        </div>
        <div id={`${id}-deliveries`}>{showDeliveries && <Deliveries endpointId={w.id} />}</div>
      </div>
      <ConfirmDialog
        show={confirm !== null}
        title={confirm === 'rotate' ? t('money.webhooks.rotateTitle') : t('money.webhooks.removeTitle')}
        body={confirm === 'rotate' ? t('money.webhooks.rotateBody') : t('money.webhooks.removeBody', { url: w.url })}
        confirmLabel={confirm === 'rotate' ? t('money.webhooks.rotateConfirm') : t('money.webhooks.removeConfirm')}
        danger
        busy={action.isPending}
        error={action.error ? errorMessage(action.error) : null}
        onConfirm={() => confirm && action.mutate(confirm)}
        onCancel={() => {
          action.reset();
          setConfirm(null);
        }}
      />
    </section>
  );
}

function Deliveries(props: { endpointId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [note, setNote] = useState<string | null>(null);
  const key = [...KEY, props.endpointId, 'deliveries'];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => call(consoleEndpoints.webhookDeliveries, { params: { id: props.endpointId }, signal }),
  });
  const replay = useMutation({
    mutationFn: (deliveryId: string) =>
      call(consoleEndpoints.replayWebhookDelivery, { params: { id: deliveryId }, headers: once() }),
    onSuccess: async () => {
      setNote(t('money.webhooks.replayed'));
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <div className="mt-3">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h4 className="h6 mb-0 me-auto">{t('money.webhooks.deliveries')}</h4>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void list.refetch()}>
          {t('money.webhooks.refresh')}
        </button>
      </div>
      <div aria-live="polite">
        {note && <p className="small text-success mb-2">{note}</p>}
        {replay.error && (
          <div className="alert alert-danger py-2" role="alert">
            {errorMessage(replay.error)}
          </div>
        )}
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <ErrorAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.deliveries.length === 0 ? (
        <p className="small text-secondary mb-0">{t('money.webhooks.noDeliveries')}</p>
      ) : (
        <TableScroll className="table-responsive-md" label={t('money.webhooks.deliveries')}>
          <table className="table table-sm bg-white border stack-table mb-0">
            <thead className="table-light">
              <tr>
                <th scope="col">{t('money.webhooks.event')}</th>
                <th scope="col">{t('money.webhooks.status')}</th>
                <th scope="col">{t('money.webhooks.attempts')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('money.webhooks.replay')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.deliveries.map((d) => (
                <tr key={d.id} data-testid="webhook-delivery">
                  <td data-label={t('money.webhooks.event')}>
                    <code>{d.eventType}</code>
                    <div className="small text-secondary text-break">{d.eventId}</div>
                  </td>
                  <td data-label={t('money.webhooks.status')}>
                    {t(`money.webhooks.deliveryStatus.${d.status}`)}
                    {d.status === 'pending' && d.nextAttemptAt && (
                      <div className="small text-secondary">
                        {t('money.webhooks.nextTry', { when: formatDateTime(d.nextAttemptAt) })}
                      </div>
                    )}
                  </td>
                  <td data-label={t('money.webhooks.attempts')}>
                    <ul className="list-unstyled mb-0 small">
                      {d.attempts.map((a, i) => (
                        <li key={i}>
                          <span data-testid="attempt-status">{a.statusCode ?? t('money.webhooks.noAnswer')}</span> ·{' '}
                          {formatDateTime(a.at)}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <BusyButton
                      type="button"
                      className="btn btn-sm btn-outline-primary"
                      busy={replay.isPending}
                      aria-label={`${t('money.webhooks.replay')} ${d.eventType} ${d.eventId}`}
                      onClick={() => {
                        setNote(null);
                        replay.mutate(d.id);
                      }}
                    >
                      {t('money.webhooks.replay')}
                    </BusyButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
