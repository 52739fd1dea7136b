import { api } from '../../lib/api.ts';

/**
 * GET /api/user/unsubscribe: public, the token of an alert email's link is the proof. A mutation,
 * sent only when the visitor clicks: opening the link (as a mail scanner does) changes nothing.
 */
const unsubscribeApi = api.injectEndpoints({
  endpoints: (build) => ({
    unsubscribe: build.mutation<{ unsubscribed: true }, string>({
      query: (token) => ({
        url: '/user/unsubscribe',
        method: 'GET',
        params: { unsubscribeToken: token },
      }),
    }),
  }),
});

export const { useUnsubscribeMutation } = unsubscribeApi;
