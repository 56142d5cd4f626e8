import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, type AnswerOf } from '../../shared/api/client';
import { consoleEndpoints } from '../../shared/api/contract';
import { ErrorAlert, Loading, useErrorMessage } from '../../shared/components/query-state';

type Prefs = AnswerOf<typeof consoleEndpoints.notificationPrefs>;
const KEY = ['me', 'notifications'];

/** My staff e-mails (GET/PUT /api/admin/me/notifications): when my links are paid, when a payment needs attention. */
export function NotificationPrefs() {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const [saved, setSaved] = useState(false);
  const prefs = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => call(consoleEndpoints.notificationPrefs, { signal }),
  });
  const save = useMutation({
    mutationFn: (p: Prefs) => call(consoleEndpoints.updateNotificationPrefs, { body: p }),
    onMutate: () => setSaved(false),
    onSuccess: (p) => {
      queryClient.setQueryData(KEY, p);
      setSaved(true);
    },
  });
  // The switches follow the click at once (as the link page's reminders switch), cleared once the answer is in.
  const [wanted, setWanted] = useState<Prefs | null>(null);
  const value = wanted ?? prefs.data;
  const toggle = (k: keyof Prefs, on: boolean) => {
    if (!value) return;
    const next = { ...value, [k]: on };
    setWanted(next);
    save.mutate(next, { onSettled: () => setWanted(null) });
  };
  return (
    <section className="card mb-4" aria-labelledby={`${id}-heading`}>
      <div className="card-body">
        <h2 id={`${id}-heading`} className="h5">
          {t('notifications.title')}
        </h2>
        <p>{t('notifications.intro')}</p>
        {prefs.isPending ? (
          <Loading />
        ) : prefs.error ? (
          <ErrorAlert error={prefs.error} onRetry={() => void prefs.refetch()} />
        ) : (
          <>
            {(['onPaid', 'onAttention'] as const).map((k) => (
              <div key={k} className="form-check form-switch mb-2">
                <input
                  id={`${id}-${k}`}
                  type="checkbox"
                  role="switch"
                  className="form-check-input"
                  checked={value?.[k] ?? true}
                  // Not `disabled`: a switch pressed with Space keeps the focus while it saves (decision 0235).
                  aria-disabled={save.isPending || undefined}
                  onChange={(e) => !save.isPending && toggle(k, e.target.checked)}
                />
                <label htmlFor={`${id}-${k}`} className="form-check-label">
                  {t(`notifications.${k}`)}
                </label>
              </div>
            ))}
            <div aria-live="polite">
              {saved && (
                <div className="alert alert-success mb-0 mt-2" role="status">
                  {t('notifications.saved')}
                </div>
              )}
              {save.error && (
                <div className="alert alert-danger mb-0 mt-2" role="alert">
                  {errorMessage(save.error)}
                </div>
              )}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
