import type { Feed, FeedPreview, UpdateFeedBody } from '../../shared/feeds.ts';
import { api } from './api.ts';

/** /api/feeds: the feeds and forums the user added by URL (Settings → Sources). */
const feedsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listFeeds: build.query<Feed[], void>({
      query: () => '/feeds',
      transformResponse: (answer: { items: Feed[] }) => answer.items,
      providesTags: ['Feeds'],
    }),
    previewFeed: build.mutation<FeedPreview, string>({
      query: (url) => ({ url: '/feeds/preview', method: 'POST', body: { url } }),
    }),
    addFeed: build.mutation<Feed, string>({
      query: (url) => ({ url: '/feeds', method: 'POST', body: { url } }),
      invalidatesTags: ['Feeds'],
    }),
    updateFeed: build.mutation<Feed, { id: string; change: UpdateFeedBody }>({
      query: ({ id, change }) => ({ url: `/feeds/${id}`, method: 'PATCH', body: change }),
      invalidatesTags: ['Feeds'],
    }),
    removeFeed: build.mutation<void, string>({
      query: (id) => ({ url: `/feeds/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Feeds'],
    }),
  }),
});

export const {
  useListFeedsQuery,
  usePreviewFeedMutation,
  useAddFeedMutation,
  useUpdateFeedMutation,
  useRemoveFeedMutation,
} = feedsApi;
