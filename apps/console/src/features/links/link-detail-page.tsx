import { useId, useState, type ComponentType, type ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ModalBox } from '../../shared/components/modal-box';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link, useParams } from 'react-router';
import type { ConsoleLinkDetail, TimelineEntry } from '../../shared/api/contract';
import { ConfirmDialog } from '../../shared/components/confirm-dialog';
import { StateBadge, useStepLabel } from '../../shared/components/link-labels';
import { PageTitle } from '../../shared/components/page-title';
import { DeclineReason, ServerCode } from '../../shared/components/server-code';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { formatCard, formatDateTime, formatMoney, formatPhone } from '../../shared/lib/format';
import { useCan } from '../../shared/session/use-session';
import { useLiveUpdates } from './board-api';
import { cancelLink, expireLink, extendLink, resendReceipt } from './link-actions-api';
import { fetchPdf, useLinkDetail, useLinkDocuments, type LinkDocument } from './link-detail-api';
import { LinkMessagesCard } from './link-messages-card';
import { LinkPlanCard } from './link-plan-card';
import { SendPanel } from './send-panel';
import { BusyButton } from '../../shared/components/busy-button';

/**
 * The link's page. `MoneyCard` (refund and void, the money feature's) is given by the app shell, which composes
 * features: a feature never imports another (eslint.config.js).
 */
export function LinkDetailPage(props: { MoneyCard: ComponentType<{ link: ConsoleLinkDetail }> }) {
  const { MoneyCard } = props;
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const detail = useLinkDetail(id);
  useLiveUpdates();

  if (detail.isPending) return <Loading />;
  if (detail.error && !detail.data)
    return (
      <>
        <PageTitle>{t('detail.title')}</PageTitle>
        <ErrorAlert error={detail.error} onRetry={() => void detail.refetch()} />
        <Link to="/">{t('detail.back')}</Link>
      </>
    );
  const link = detail.data;
  return (
    <>
      <Link to="/" className="d-inline-block mb-2">
        ← {t('detail.back')}
      </Link>
      <PageTitle actions={<StateBadge state={link.status} />}>{`${link.firstName} ${link.lastName}`}</PageTitle>
      <p className="small text-secondary" aria-live="polite">
        {t('detail.live')}
      </p>
      <Actions link={link} />
      <div className="row g-3">
        <div className="col-lg-6">
          <People link={link} />
          <Payment link={link} />
          {link.plan && <LinkPlanCard plan={link.plan} linkId={link.id} history={link.planHistory} />}
          <MoneyCard link={link} />
          <Documents id={link.id} />
        </div>
        <div className="col-lg-6">
          <Steps link={link} />
          <LinkMessagesCard id={link.id} active={link.status === 'active'} />
          <Timeline link={link} />
        </div>
      </div>
    </>
  );
}

function Card(props: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card mb-3" aria-labelledby={id}>
      <div className="card-body">
        <h2 id={id} className="h5">
          {props.title}
        </h2>
        {props.children}
      </div>
    </section>
  );
}

function Facts(props: { rows: [string, ReactNode][] }) {
  return (
    <dl className="row mb-0">
      {props.rows.map(([k, v]) => (
        <div key={k} className="col-12 d-flex flex-wrap border-bottom py-1">
          <dt className="col-5 col-sm-4 fw-semibold text-secondary">{k}</dt>
          <dd className="col-7 col-sm-8 mb-0 text-break">{v || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

export function People(props: { link: ConsoleLinkDetail }) {
  const { t } = useTranslation();
  const l = props.link;
  const address = [l.address, l.city, [l.state, l.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  // The payment's name is the payor's only when a payor paid: a patient's payment keeps the name on their own card
  // there too (issue 29, item 4).
  const payorPaid = l.payment?.payer === 'payor';
  const payorName = (payorPaid ? l.payment?.payorFullName : null) ?? l.payorName;
  const payorEmail = (payorPaid ? l.payment?.payorEmail : null) ?? l.payorEmail;
  return (
    <>
      <Card title={t('detail.patient')}>
        <Facts
          rows={[
            [t('detail.phone'), formatPhone(l.phone)],
            [t('detail.email'), l.email],
            [t('detail.address'), address],
            [t('detail.procedure'), l.procedureDescription],
            [t('detail.language'), t(`codes.language.${l.language}`)],
            [t('detail.signInMethod'), l.signInMethod === 'sms' ? 'SMS' : t('detail.email')],
            [
              t('detail.created'),
              `${formatDateTime(l.createdAt)}${l.coordinator ? ` · ${l.coordinator.name || l.coordinator.email}` : ''}`,
            ],
            [t('detail.expires'), formatDateTime(l.expiresAt)],
            [t('detail.link'), <code key="url">{l.url}</code>],
            ...(l.isPaymentLinkLocked ? ([[t('detail.locked'), t('common.yes')]] as [string, ReactNode][]) : []),
          ]}
        />
      </Card>
      <Card title={t('detail.payor')}>
        {payorName || payorEmail ? (
          <Facts
            rows={[
              [t('detail.name'), payorName],
              [t('detail.email'), payorEmail],
            ]}
          />
        ) : (
          <p className="mb-0">{t('detail.noPayor')}</p>
        )}
      </Card>
    </>
  );
}

/** Who paid: the payor when a payor paid, the patient when the patient did (the payment's source says which). */
function paidBy(t: TFunction, link: ConsoleLinkDetail): string {
  const p = link.payment;
  if (!p || p.status !== 'approved') return '';
  if (p.payer === 'payor') {
    const name = p.payorFullName || link.payorName;
    return name ? t('billing.paidByPayor', { name }) : t('billing.paidByPayorUnnamed');
  }
  return t('billing.paidByPatient', { name: `${link.firstName} ${link.lastName}` });
}

export function Payment(props: { link: ConsoleLinkDetail }) {
  const { t } = useTranslation();
  const p = props.link.payment;
  return (
    <Card title={t('detail.payment')}>
      {!p ? (
        <p className="mb-0">{t('detail.noPaymentYet')}</p>
      ) : (
        <Facts
          rows={[
            [t('detail.amount'), formatMoney(p.amount)],
            [t('detail.paymentType'), p.paymentTypeId === 1 ? t('detail.deposit') : t('detail.partial')],
            [t('detail.paymentStatus'), p.status === 'approved' ? t('payments.approved') : t('payments.chosen')],
            ...(p.status === 'approved'
              ? ([
                  [t('billing.paidBy'), paidBy(t, props.link)],
                  [t('billing.nameOnCard'), p.payorFullName],
                ] as [string, ReactNode][])
              : []),
            [t('detail.card'), formatCard(p.cardBrand, p.cardLast4)],
            [t('detail.transactionId'), p.transactionId],
            [t('detail.approvalCode'), p.approvalCode],
            [t('detail.paidAt'), p.paidAt ? formatDateTime(p.paidAt) : ''],
          ]}
        />
      )}
      {props.link.attempts.length > 0 && (
        <>
          <h3 className="h6 mt-3">{t('detail.attempts')}</h3>
          <ul className="list-unstyled mb-0 small">
            {props.link.attempts.map((a) => (
              <li key={a.id} className="border-bottom py-1">
                {formatDateTime(a.at)} · {formatMoney(a.amount)} · {t(`detail.attempt.${a.status}`)}
                {a.declineReason && (
                  <>
                    {' — '}
                    <DeclineReason reason={a.declineReason} />
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

function Steps(props: { link: ConsoleLinkDetail }) {
  const { t } = useTranslation();
  const stepLabel = useStepLabel();
  const steps = props.link.steps;
  return (
    <Card title={t('detail.steps')}>
      {steps.length === 0 ? (
        <p className="mb-0">{t('steps.not_started')}</p>
      ) : (
        <ol className="list-group list-group-numbered">
          {steps.map((s) => (
            <li key={s.position} className="list-group-item d-flex justify-content-between align-items-start gap-2">
              <div className="ms-2 me-auto">
                <div className="fw-semibold">{stepLabel(s.key)}</div>
                {s.status === 'completed' ? (
                  <span className="small">{t('detail.stepDone', { when: formatDateTime(s.completedAt) })}</span>
                ) : s.status === 'in_progress' ? (
                  <span className="small">{t('detail.stepInProgress')}</span>
                ) : (
                  <span className="small text-secondary">{t('detail.stepNotStarted')}</span>
                )}
              </div>
              <span
                className={`badge ${s.status === 'completed' ? 'text-bg-success' : s.status === 'in_progress' ? 'text-bg-primary' : 'text-bg-light border'}`}
              >
                {s.status === 'completed' ? '✓' : s.status === 'in_progress' ? '…' : '–'}
                <span className="visually-hidden">
                  {s.status === 'completed'
                    ? t('steps.done')
                    : s.status === 'in_progress'
                      ? t('detail.stepInProgress')
                      : t('detail.stepNotStarted')}
                </span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function Timeline(props: { link: ConsoleLinkDetail }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'es' ? 'es' : 'en';
  return (
    <Card title={t('detail.timeline')}>
      {props.link.timeline.length === 0 ? (
        <p className="mb-0">{t('detail.noTimeline')}</p>
      ) : (
        <ol className="timeline mb-0" aria-label={t('detail.timeline')}>
          {props.link.timeline.map((e) => (
            <li key={e.id} data-action={e.action}>
              <div>{e.text[lang]}</div>
              <div className="small text-secondary">
                <time dateTime={e.at}>{formatDateTime(e.at)}</time> · <Actor actor={e.actor} />
              </div>
              {e.note && (
                <div className="small">
                  <Note kind={e.noteKind} note={e.note} />
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

/** Who did it: a staff member by name; the patient and Paylink itself in the reader's language. */
function Actor(props: { actor: TimelineEntry['actor'] }) {
  const { t } = useTranslation();
  const { type, name } = props.actor;
  if (type === 'patient') return <>{t('timeline.actorPatient')}</>;
  if (type === 'system') return <>{t('timeline.actorSystem')}</>;
  return <>{name && name !== 'Staff' ? name : t('timeline.actorStaff')}</>;
}

/** A timeline note by its kind: staff's own words as written; codes and ids in the reader's language. */
function Note(props: { kind: TimelineEntry['noteKind']; note: string }) {
  const { t } = useTranslation();
  const { kind, note } = props;
  switch (kind) {
    case 'gateway':
    case 'failure':
    case 'signIn':
      return <ServerCode group={kind} code={note} />;
    case 'deliveryError':
      return <>{t('codes.note.deliveryError', { code: note })}</>;
    case 'transaction':
      return <>{t('codes.note.transaction', { id: note })}</>;
    default:
      return <>{t('timeline.reason', { reason: note })}</>;
  }
}

function Documents(props: { id: string }) {
  const { t } = useTranslation();
  const docs = useLinkDocuments(props.id);
  const errorMessage = useErrorMessage();
  const [failure, setFailure] = useState<string | null>(null);

  const open = async (doc: LinkDocument, download: boolean) => {
    setFailure(null);
    // A tab opened synchronously keeps the click's permission to open a window.
    const tab = download ? null : window.open('', '_blank');
    try {
      const blob = await fetchPdf(doc.pdfUrl!);
      const url = URL.createObjectURL(blob);
      if (tab) tab.location.href = url;
      else {
        const a = document.createElement('a');
        a.href = url;
        a.download = `${doc.kind}-${doc.submissionId}.pdf`;
        a.click();
      }
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      tab?.close();
      setFailure(errorMessage(e));
    }
  };

  return (
    <Card title={t('detail.documents')}>
      {docs.isPending ? (
        <Loading />
      ) : docs.error ? (
        <ErrorAlert error={docs.error} onRetry={() => void docs.refetch()} />
      ) : docs.data.length === 0 ? (
        <p className="mb-0">{t('detail.noDocuments')}</p>
      ) : (
        <ul className="list-group">
          {docs.data.map((d) => (
            <li key={d.submissionId} className="list-group-item d-flex flex-wrap align-items-center gap-2">
              <div className="me-auto">
                <div className="fw-semibold">{t(`docs.${d.kind}`)}</div>
                <div className="small text-secondary">
                  {d.status === 'completed'
                    ? t('detail.docSigned', { name: d.signerName ?? '', when: formatDateTime(d.completedAt) })
                    : t('detail.docPending')}
                </div>
              </div>
              {d.pdfUrl && (
                <>
                  <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => void open(d, false)}>
                    {t('detail.docView')}
                    <span className="visually-hidden"> {t(`docs.${d.kind}`)}</span>
                  </button>
                  <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => void open(d, true)}>
                    {t('detail.docDownload')}
                    <span className="visually-hidden"> {t(`docs.${d.kind}`)}</span>
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {failure && (
        <div className="alert alert-danger mt-2 mb-0" role="alert">
          {failure}
        </div>
      )}
    </Card>
  );
}

type Action = 'cancel' | 'expire' | 'extend' | null;

function Actions(props: { link: ConsoleLinkDetail }) {
  const { t } = useTranslation();
  const can = useCan();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [open, setOpen] = useState<Action>(null);
  const [done, setDone] = useState(false);
  const l = props.link;
  const run = useMutation({
    mutationFn: async (v: { action: Exclude<Action, null>; reason: string; days?: number }) =>
      v.action === 'cancel'
        ? cancelLink(l.id, v.reason)
        : v.action === 'expire'
          ? expireLink(l.id, v.reason)
          : extendLink(l.id, v.days ?? 7, v.reason),
    onSuccess: () => {
      setOpen(null);
      setDone(true);
      void queryClient.invalidateQueries({ queryKey: ['link', l.id] });
      void queryClient.invalidateQueries({ queryKey: ['board'] });
    },
  });
  const show = (a: Action) => {
    run.reset();
    setDone(false);
    setOpen(a);
  };
  // A paid link's only action is its receipt again (issue 29, item 4): the card is never empty.
  const paid = l.status === 'completed' && l.payment?.status === 'approved' && can('receipts.resend');
  if (!can('links.manage') && !paid) return null;
  const changeable = can('links.manage') && (l.status === 'active' || l.status === 'expired');
  if (!changeable && !paid && l.status !== 'active') return null;
  return (
    <Card title={t('detail.actions')}>
      {paid && <ResendReceipt id={l.id} />}
      {l.status === 'active' && can('links.manage') && (
        <SendPanel
          id={l.id}
          url={l.url}
          phone={l.phone}
          email={l.email}
          resend={l.timeline.some((e) => e.action === 'link.sent')}
        />
      )}
      {changeable && (
        <div className="d-flex flex-wrap gap-2 mt-2">
          <button type="button" className="btn btn-outline-primary" onClick={() => show('extend')}>
            {t('detail.extend')}
          </button>
          {l.status === 'active' && (
            <button type="button" className="btn btn-outline-secondary" onClick={() => show('expire')}>
              {t('detail.expire')}
            </button>
          )}
          <button type="button" className="btn btn-outline-danger" onClick={() => show('cancel')}>
            {t('detail.cancelLink')}
          </button>
        </div>
      )}
      <div aria-live="polite">
        {done && (
          <div className="alert alert-success mt-2 mb-0" role="status">
            {t('detail.done')}
          </div>
        )}
      </div>
      <ConfirmDialog
        show={open === 'cancel'}
        title={t('detail.cancelTitle')}
        body={t('detail.cancelBody')}
        confirmLabel={t('detail.cancelLink')}
        danger
        askReason
        busy={run.isPending}
        error={run.error ? errorMessage(run.error) : null}
        onConfirm={(reason) => run.mutate({ action: 'cancel', reason })}
        onCancel={() => setOpen(null)}
      />
      <ConfirmDialog
        show={open === 'expire'}
        title={t('detail.expireTitle')}
        body={t('detail.expireBody')}
        confirmLabel={t('detail.expire')}
        askReason
        busy={run.isPending}
        error={run.error ? errorMessage(run.error) : null}
        onConfirm={(reason) => run.mutate({ action: 'expire', reason })}
        onCancel={() => setOpen(null)}
      />
      <ExtendDialog
        show={open === 'extend'}
        busy={run.isPending}
        error={run.error ? errorMessage(run.error) : null}
        onConfirm={(days, reason) => run.mutate({ action: 'extend', days, reason })}
        onCancel={() => setOpen(null)}
      />
    </Card>
  );
}

/** "Resend receipt": asks first, then says where it went (masked) or why not (nowhere to send, just sent). */
export function ResendReceipt(props: { id: string }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const send = useMutation({
    mutationFn: () => resendReceipt(props.id),
    onSuccess: () => {
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: ['link', props.id] });
    },
  });
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-primary"
        onClick={() => {
          send.reset();
          setAsking(true);
        }}
      >
        {t('billing.receipt.action')}
      </button>
      <div aria-live="polite">
        {send.data && (
          <div className="alert alert-success mt-2 mb-0" role="status">
            {t('billing.receipt.sent', { to: send.data.to })}
          </div>
        )}
      </div>
      <ConfirmDialog
        show={asking}
        title={t('billing.receipt.title')}
        body={t('billing.receipt.body')}
        confirmLabel={t('billing.receipt.confirm')}
        busy={send.isPending}
        error={send.error ? errorMessage(send.error) : null}
        onConfirm={() => send.mutate()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}

function ExtendDialog(props: {
  show: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: (days: number, reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [days, setDays] = useState('7');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const n = Number(days);
  const daysBad = !Number.isInteger(n) || n < 1 || n > 365;
  const reasonBad = reason.trim() === '';
  return (
    <Modal dialogAs={ModalBox} show={props.show} onHide={props.onCancel} centered aria-labelledby={`${id}-title`}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!daysBad && !reasonBad) props.onConfirm(n, reason.trim());
        }}
      >
        <Modal.Header closeButton closeLabel={t('common.close')}>
          <Modal.Title id={`${id}-title`} as="h2" className="h5">
            {t('detail.extendTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{t('detail.extendBody')}</p>
          <div className="mb-3">
            <label htmlFor={`${id}-days`} className="form-label">
              {t('detail.extendDays')}
            </label>
            <input
              id={`${id}-days`}
              type="number"
              min={1}
              max={365}
              inputMode="numeric"
              className={`form-control ${touched && daysBad ? 'is-invalid' : ''}`}
              value={days}
              aria-invalid={touched && daysBad ? true : undefined}
              aria-describedby={touched && daysBad ? `${id}-days-error` : undefined}
              onChange={(e) => setDays(e.target.value)}
            />
            {touched && daysBad && (
              <div id={`${id}-days-error`} className="invalid-feedback">
                {t('validation.days')}
              </div>
            )}
          </div>
          <label htmlFor={`${id}-reason`} className="form-label">
            {t('confirm.reason')}
          </label>
          <textarea
            id={`${id}-reason`}
            rows={2}
            maxLength={500}
            className={`form-control ${touched && reasonBad ? 'is-invalid' : ''}`}
            value={reason}
            aria-invalid={touched && reasonBad ? true : undefined}
            aria-describedby={touched && reasonBad ? `${id}-reason-error` : undefined}
            onChange={(e) => setReason(e.target.value)}
          />
          {touched && reasonBad && (
            <div id={`${id}-reason-error`} className="invalid-feedback">
              {t('confirm.reasonRequired')}
            </div>
          )}
          {props.error && (
            <div className="alert alert-danger mt-3 mb-0" role="alert">
              {props.error}
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={props.onCancel}>
            {t('common.cancel')}
          </button>
          <BusyButton type="submit" className="btn btn-primary" busy={props.busy}>
            {t('detail.extend')}
          </BusyButton>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
