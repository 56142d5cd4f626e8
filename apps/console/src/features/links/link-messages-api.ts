import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../shared/api/client';
import { consoleEndpoints, type LinkMessage, type LinkMessagesResult } from '../../shared/api/contract';

export type { LinkMessagesResult };

const key = (id: string) => ['link', id, 'messages'];

const FINAL = new Set(['delivered', 'undelivered', 'failed', 'accepted', 'refused']);
const POLL_MS = 5_000;
const POLL_FOR_MS = 10 * 60_000;

/** A message sent in the last minutes whose provider has not given its final word yet. */
export function awaitingStatus(messages: LinkMessage[], now = Date.now()): boolean {
  return messages.some(
    (m) =>
      m.status !== 'failed' &&
      !(m.deliveryStatus && FINAL.has(m.deliveryStatus)) &&
      now - Date.parse(m.createdAt) < POLL_FOR_MS,
  );
}

/**
 * Live like the detail: refetched when /board/changes names this link (a send, a reminder, a Twilio outcome). The
 * outbox's own "handed over / accepted" leaves no audit row, so while a fresh message waits for its status the card
 * also polls (for ten minutes at most: each read is audited).
 */
export function useLinkMessages(id: string) {
  return useQuery({
    queryKey: key(id),
    queryFn: ({ signal }) => call(consoleEndpoints.linkMessages, { params: { id }, signal, background: true }),
    refetchInterval: (q) => (q.state.data && awaitingStatus(q.state.data.messages) ? POLL_MS : false),
  });
}

export function useSetReminders(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => call(consoleEndpoints.linkReminders, { params: { id }, body: { enabled } }),
    onSuccess: (r) => {
      // The switch shows the answer at once, not the old value until the refetch lands.
      queryClient.setQueryData<LinkMessagesResult>(key(id), (old) =>
        old ? { ...old, reminders: { ...old.reminders, enabled: r.enabled } } : old,
      );
      void queryClient.invalidateQueries({ queryKey: ['link', id] });
    },
  });
}
