import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkMessage, LinkMessagesResult } from '../../shared/api/contract';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';
import { formatDateTime, formatPhone } from '../../shared/lib/format';
import { useCan } from '../../shared/session/use-session';
import { useLinkMessages, useSetReminders } from './link-messages-api';

/** The provider's word when there is one; else the outbox's own state (pending = not yet handed over). */
function messageStatus(m: Pick<LinkMessage, 'status' | 'deliveryStatus'>): string {
  return m.deliveryStatus ?? (m.status === 'pending' ? 'pending' : m.status === 'failed' ? 'failed' : 'handed');
}
const BAD = new Set(['failed', 'undelivered', 'refused']);
const GOOD = new Set(['delivered', 'accepted']);

/**
 * The patient's zone for texts and the next time Paylink may text them (decision 0217), in that zone's clock: quiet
 * hours are the patient's, so the practice sees the hour the patient sees.
 */
export function TextWindow(props: {
  reminders: Pick<LinkMessagesResult['reminders'], 'timeZone' | 'timeZoneSource' | 'nextTextAt'>;
}) {
  const { t, i18n } = useTranslation();
  const r = props.reminders;
  const when = r.nextTextAt
    ? new Intl.DateTimeFormat(i18n.language === 'es' ? 'es-US' : 'en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone: r.timeZone,
        timeZoneName: 'short',
      }).format(new Date(r.nextTextAt))
    : null;
  return (
    <p className="small text-secondary mb-0" data-testid="text-window">
      {t('messages.timeZone', { zone: r.timeZone, source: t(`messages.timeZoneSource.${r.timeZoneSource}`) })}
      {when && r.nextTextAt ? (
        <>
          {' · '}
          {t('messages.nextText')} <time dateTime={r.nextTextAt}>{when}</time>
        </>
      ) : (
        ` · ${t('messages.noPhone')}`
      )}
    </p>
  );
}

/** Messages sent for the link with their delivery statuses, and the link's reminders switch. */
export function LinkMessagesCard(props: { id: string; active: boolean }) {
  const { t } = useTranslation();
  const headingId = useId();
  const messages = useLinkMessages(props.id);
  return (
    <section className="card mb-3" aria-labelledby={headingId}>
      <div className="card-body">
        <h2 id={headingId} className="h5">
          {t('messages.title')}
        </h2>
        {messages.isPending ? (
          <Loading />
        ) : messages.error && !messages.data ? (
          <ErrorAlert error={messages.error} onRetry={() => void messages.refetch()} />
        ) : (
          <>
            <Reminders id={props.id} active={props.active} reminders={messages.data.reminders} />
            {messages.data.messages.length === 0 ? (
              <p className="mb-0">{t('messages.none')}</p>
            ) : (
              <ul className="list-group" aria-label={t('messages.list')}>
                {[...messages.data.messages].reverse().map((m) => (
                  <MessageRow key={m.id} m={m} />
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}

export function MessageRow(props: { m: LinkMessage }) {
  const { t, i18n } = useTranslation();
  const m = props.m;
  const status = messageStatus(m);
  const badge = BAD.has(status) ? 'text-bg-danger' : GOOD.has(status) ? 'text-bg-success' : 'text-bg-secondary';
  return (
    <li className="list-group-item d-flex flex-wrap align-items-start gap-2" data-message-kind={m.kind}>
      <div className="me-auto">
        <div className="fw-semibold">
          {/* A kind without words reads as a message, never as its code (issue 29, item 4). */}
          {i18n.exists(`messages.kind.${m.kind}`) ? t(`messages.kind.${m.kind}`) : t('messages.kind.other')} ·{' '}
          {m.channel === 'sms' ? 'SMS' : t('messages.email')}
        </div>
        <div className="small text-secondary text-break">
          {m.channel === 'sms' ? formatPhone(m.to) : m.to} ·{' '}
          <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
        </div>
        {m.deliveryError && <div className="small">{t('messages.error', { code: m.deliveryError })}</div>}
      </div>
      <span className={`badge ${badge}`} data-delivery={status}>
        {t(`messages.status.${status}`)}
      </span>
    </li>
  );
}

function Reminders(props: { id: string; active: boolean; reminders: LinkMessagesResult['reminders'] }) {
  const { t } = useTranslation();
  const can = useCan();
  const id = useId();
  const errorMessage = useErrorMessage();
  const set = useSetReminders(props.id);
  const r = props.reminders;
  // The switch follows the click at once: React would put a controlled checkbox back to the old value before the
  // mutation reports pending (a flicker, and a click that seemed not to take). Cleared once the answer is in.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const enabled = wanted ?? r.enabled;
  return (
    <div className="mb-3">
      {can('links.manage') && props.active ? (
        <div className="form-check form-switch">
          <input
            id={`${id}-reminders`}
            className="form-check-input"
            type="checkbox"
            role="switch"
            checked={enabled}
            // Not `disabled`: pressed with Space, the switch keeps the focus while it saves (decision 0235).
            aria-disabled={set.isPending || undefined}
            aria-describedby={`${id}-reminders-hint`}
            onChange={(e) => {
              if (set.isPending) return;
              setWanted(e.target.checked);
              set.mutate(e.target.checked, { onSettled: () => setWanted(null) });
            }}
          />
          <label className="form-check-label" htmlFor={`${id}-reminders`}>
            {t('messages.remindersSwitch')}
          </label>
        </div>
      ) : (
        <p className="mb-1">{r.enabled ? t('messages.remindersOn') : t('messages.remindersOff')}</p>
      )}
      <p id={`${id}-reminders-hint`} className="small text-secondary mb-0">
        {t('messages.remindersSent', { count: r.sent })}
        {r.enabled && r.nextCheckAt && props.active
          ? ` · ${t('messages.nextCheck', { when: formatDateTime(r.nextCheckAt) })}`
          : ''}
      </p>
      <TextWindow reminders={r} />
      <div aria-live="polite">
        {set.error && (
          <div className="alert alert-danger mt-2 mb-0" role="alert">
            {errorMessage(set.error)}
          </div>
        )}
      </div>
    </div>
  );
}
