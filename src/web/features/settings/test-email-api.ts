import { api } from '../../lib/api.ts';

/** POST /api/user/test-email: one sample alert email to the signed-in user (one a minute). */
const testEmailApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendTestEmail: build.mutation<{ queued: true; to: string }, void>({
      query: () => ({ url: '/user/test-email', method: 'POST' }),
    }),
  }),
});

export const { useSendTestEmailMutation } = testEmailApi;
