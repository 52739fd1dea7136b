import type {
  AlertFeed,
  CreatedAlertFeed,
  ResetAlertFeedBody,
} from '../../../shared/alert-feeds.ts';
import { api } from '../../lib/api.ts';

/** /api/alert-feeds: which feeds have a link; make or reset one (the answer holds its URLs, once). */
const alertFeedsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listAlertFeeds: build.query<AlertFeed[], void>({
      query: () => '/alert-feeds',
      providesTags: ['AlertFeeds'],
    }),
    resetAlertFeed: build.mutation<CreatedAlertFeed, ResetAlertFeedBody>({
      query: (body) => ({ url: '/alert-feeds', method: 'POST', body }),
      invalidatesTags: ['AlertFeeds'],
    }),
    deleteAlertFeed: build.mutation<void, string>({
      query: (id) => ({ url: `/alert-feeds/${id}`, method: 'DELETE' }),
      invalidatesTags: ['AlertFeeds'],
    }),
  }),
});

export const { useListAlertFeedsQuery, useResetAlertFeedMutation, useDeleteAlertFeedMutation } =
  alertFeedsApi;
