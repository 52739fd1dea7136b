import type { Delivery } from '../../../shared/deliveries.ts';
import { api } from '../../lib/api.ts';

/** The delivery history: a monitor's webhook calls, the user's emails; send a failed one again. */
const deliveriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listWebhookCalls: build.query<Delivery[], string>({
      query: (monitorId) => `/monitors/${monitorId}/webhook/calls`,
      providesTags: ['Deliveries'],
    }),
    sendWebhookCallAgain: build.mutation<Delivery, { monitorId: string; id: string }>({
      query: ({ monitorId, id }) => ({
        url: `/monitors/${monitorId}/webhook/calls/${id}/send-again`,
        method: 'POST',
      }),
      invalidatesTags: ['Deliveries'],
    }),
    listEmails: build.query<Delivery[], void>({
      query: () => '/emails',
      providesTags: ['Deliveries'],
    }),
    sendEmailAgain: build.mutation<Delivery, string>({
      query: (id) => ({ url: `/emails/${id}/send-again`, method: 'POST' }),
      invalidatesTags: ['Deliveries'],
    }),
  }),
});

export const {
  useListWebhookCallsQuery,
  useSendWebhookCallAgainMutation,
  useListEmailsQuery,
  useSendEmailAgainMutation,
} = deliveriesApi;
