import type { RatingLink } from '../../../shared/match.ts';
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
    /** What an alert email's rating link would do: reading it changes nothing. */
    readRatingLink: build.query<RatingLink, string>({
      query: (token) => ({ url: '/feedback', params: { token } }),
    }),
    /** Rates the alert (or, with `undo`, takes the rating back): only on the visitor's click. */
    applyRatingLink: build.mutation<RatingLink, { token: string; undo: boolean }>({
      query: (body) => ({ url: '/feedback', method: 'POST', body }),
    }),
  }),
});

export const { useUnsubscribeMutation, useReadRatingLinkQuery, useApplyRatingLinkMutation } =
  unsubscribeApi;
