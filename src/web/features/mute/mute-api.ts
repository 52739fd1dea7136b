import type { MuteResult } from '../../../shared/mute.ts';
import { api } from '../../lib/api.ts';

/**
 * /api/mutes: public, the token of an alert email's mute link is the proof. Reading it changes
 * nothing (mail scanners open links); muting and undoing are mutations sent on a click.
 */
const muteApi = api.injectEndpoints({
  endpoints: (build) => ({
    describeMute: build.query<MuteResult, string>({
      query: (token) => ({ url: '/mutes', params: { muteToken: token } }),
      keepUnusedDataFor: 0,
    }),
    applyMute: build.mutation<MuteResult, string>({
      query: (token) => ({ url: '/mutes', method: 'POST', params: { muteToken: token } }),
    }),
    undoMute: build.mutation<MuteResult, string>({
      query: (token) => ({ url: '/mutes', method: 'DELETE', params: { muteToken: token } }),
    }),
  }),
});

export const { useDescribeMuteQuery, useApplyMuteMutation, useUndoMuteMutation } = muteApi;
