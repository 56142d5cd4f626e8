import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api/client';
import type { LinkMessage } from '../../shared/api/contract';

export interface LinkMessagesResult {
  messages: LinkMessage[];
  reminders: { enabled: boolean; nextCheckAt: string | null; sent: number };
}

const key = (id: string) => ['link', id, 'messages'];

/** Live like the detail: refetched when /board/changes names this link (a delivery status, a reminder, a send). */
export function useLinkMessages(id: string) {
  return useQuery({
    queryKey: key(id),
    queryFn: ({ signal }) =>
      api.get<LinkMessagesResult>(`/api/admin/links/${encodeURIComponent(id)}/messages`, { signal, background: true }),
  });
}

export function useSetReminders(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      api.post<{ enabled: boolean }>(`/api/admin/links/${encodeURIComponent(id)}/reminders`, { body: { enabled } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['link', id] }),
  });
}
