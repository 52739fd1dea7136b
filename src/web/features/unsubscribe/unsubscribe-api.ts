import { api } from '../../lib/api.ts';

/** GET /api/user/unsubscribe: public, the token of an alert email's link is the proof. */
const unsubscribeApi = api.injectEndpoints({
  endpoints: (build) => ({
    unsubscribe: build.query<{ unsubscribed: true }, string>({
      query: (token) => ({ url: '/user/unsubscribe', params: { unsubscribeToken: token } }),
      // Each visit asks again: the answer changes data, so it is never served from the cache.
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useUnsubscribeQuery } = unsubscribeApi;
