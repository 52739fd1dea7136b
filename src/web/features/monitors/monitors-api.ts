import type {
  CreateMonitorBody,
  Monitor,
  MonitorCoach,
  MonitorPreview,
  PreviewMonitorBody,
  UpdateMonitorBody,
} from '../../../shared/monitor.ts';
import { api } from '../../lib/api.ts';

export type { Monitor, MonitorCoach, MonitorPreview };

/** The monitors endpoints (docs/product.md, "Monitors"), cached under the Monitors tag. */
export const monitorsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listMonitors: build.query<Monitor[], void>({
      query: () => '/monitors',
      providesTags: ['Monitors'],
    }),
    createMonitor: build.mutation<Monitor, CreateMonitorBody>({
      query: (body) => ({ url: '/monitors', method: 'POST', body }),
      invalidatesTags: ['Monitors'],
    }),
    /**
     * Pause and e-mail mute show at once (optimistic) and roll back if the API refuses; other
     * changes (a new query) wait for the answer.
     */
    updateMonitor: build.mutation<Monitor, { id: string; changes: UpdateMonitorBody }>({
      query: ({ id, changes }) => ({ url: `/monitors/${id}`, method: 'PATCH', body: changes }),
      async onQueryStarted({ id, changes }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          monitorsApi.util.updateQueryData('listMonitors', undefined, (draft) => {
            const monitor = draft.find((m) => m.id === id);
            if (!monitor) return;
            if (changes.paused !== undefined) monitor.paused = changes.paused;
            if (changes.emailMuted !== undefined) monitor.emailMuted = changes.emailMuted;
          }),
        );
        try {
          const { data } = await queryFulfilled;
          dispatch(
            monitorsApi.util.updateQueryData('listMonitors', undefined, (draft) =>
              draft.map((m) => (m.id === id ? data : m)),
            ),
          );
        } catch {
          patch.undo();
        }
      },
    }),
    deleteMonitor: build.mutation<void, string>({
      query: (id) => ({ url: `/monitors/${id}`, method: 'DELETE' }),
      // Its matches go with it.
      invalidatesTags: ['Monitors', 'Matches'],
    }),
    /**
     * The query coach and the rated matches' scores; read again when a rating changes the feed
     * (the alerts' FEED tag).
     */
    monitorCoach: build.query<MonitorCoach, string>({
      query: (id) => `/monitors/${id}/coach`,
      providesTags: [{ type: 'Matches', id: 'FEED' }],
    }),
    /** What a query would have found this week; a 400 carries the syntax error's position. */
    previewMonitor: build.query<MonitorPreview, PreviewMonitorBody>({
      query: (body) => ({ url: '/monitors/preview', method: 'POST', body }),
    }),
  }),
});

export const {
  useListMonitorsQuery,
  useCreateMonitorMutation,
  useUpdateMonitorMutation,
  useDeleteMonitorMutation,
  useLazyPreviewMonitorQuery,
  useMonitorCoachQuery,
} = monitorsApi;
