import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useErrorMessage } from '../../shared/components/query-state';
import { copyText } from '../../shared/lib/copy-text';
import { useFocusWhen } from '../../shared/lib/focus';
import { sendLink, type SendChannel } from './link-actions-api';
import { BusyButton } from '../../shared/components/busy-button';

/** Send by SMS / e-mail (POST /api/admin/links/:id/send, through the outbox) or copy the personal link. */
export function SendPanel(props: { id: string; url: string; phone: string; email: string; resend?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [copied, setCopied] = useState(false);
  const [sentBy, setSentBy] = useState<SendChannel | null>(null);
  const send = useMutation({
    mutationFn: (channel: SendChannel) => sendLink(props.id, channel),
    onSuccess: (_r, channel) => {
      setSentBy(channel);
      void queryClient.invalidateQueries({ queryKey: ['link', props.id] });
      void queryClient.invalidateQueries({ queryKey: ['board'] });
    },
  });
  // The send button is disabled while sending: focus goes to the answer (sent, or why not), never <body>.
  const sent = sentBy && !send.isPending && !send.error ? send.submittedAt : 0;
  const sentRef = useFocusWhen<HTMLDivElement>(sent);
  const errorRef = useFocusWhen<HTMLDivElement>(send.error);
  const channelName = (c: SendChannel) => (c === 'sms' ? 'SMS' : t('newLink.email').toLowerCase());
  return (
    <div>
      <div className="d-flex flex-wrap gap-2">
        {props.phone && (
          <BusyButton
            type="button"
            className="btn btn-primary"
            busy={send.isPending}
            onClick={() => send.mutate('sms')}
          >
            {props.resend ? `${t('detail.resend')} · SMS` : t('newLink.sendSms')}
          </BusyButton>
        )}
        {props.email && (
          <BusyButton
            type="button"
            className="btn btn-primary"
            busy={send.isPending}
            onClick={() => send.mutate('email')}
          >
            {props.resend ? `${t('detail.resend')} · ${t('newLink.email')}` : t('newLink.sendEmail')}
          </BusyButton>
        )}
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={() => void copyText(props.url).then((ok) => setCopied(ok))}
        >
          {copied ? t('common.copied') : t('newLink.copyLink')}
        </button>
      </div>
      <div aria-live="polite" className="mt-2">
        {sentBy && !send.isPending && !send.error && (
          <div ref={sentRef} tabIndex={-1} className="alert alert-success mb-0" role="status">
            {t('newLink.sent', { channel: channelName(sentBy) })}
          </div>
        )}
        {send.error && (
          <div ref={errorRef} tabIndex={-1} className="alert alert-danger mb-0" role="alert">
            {errorMessage(send.error)}
          </div>
        )}
      </div>
    </div>
  );
}
