import type { SetWebhookBody, WebhookTestResult } from '../../../shared/webhook.ts';
import { api } from '../../lib/api.ts';

/** A monitor's webhook: set or removed through PATCH /api/monitors/:id, tested with a sample. */
const monitorWebhookApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Answers the monitor, with its webhook; the list is refetched through the tag. */
    setMonitorWebhook: build.mutation<unknown, { id: string; webhook: SetWebhookBody }>({
      query: ({ id, webhook }) => ({ url: `/monitors/${id}`, method: 'PATCH', body: { webhook } }),
      invalidatesTags: ['Monitors'],
    }),
    testMonitorWebhook: build.mutation<WebhookTestResult, string>({
      query: (id) => ({ url: `/monitors/${id}/webhook/test`, method: 'POST' }),
    }),
  }),
});

export const { useSetMonitorWebhookMutation, useTestMonitorWebhookMutation } = monitorWebhookApi;
