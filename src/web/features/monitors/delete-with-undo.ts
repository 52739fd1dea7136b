import { toast } from 'sonner';
import type { AppDispatch } from '../../lib/store.ts';
import { UNDO_WINDOW_MS } from '../../lib/undo-window.ts';
import { monitorsApi } from './monitors-api.ts';

/**
 * Deleting a monitor also deletes its matches, so the delete is sent only when the undo window
 * has passed: the monitor leaves the list at once, and Undo puts it back as it was, matches and
 * all. Leaving the page does not cancel the delete.
 */
export function deleteMonitorWithUndo(
  dispatch: AppDispatch,
  monitor: { id: string; name: string; query: string },
): void {
  const hidden = dispatch(
    monitorsApi.util.updateQueryData('listMonitors', undefined, (draft) =>
      draft.filter((m) => m.id !== monitor.id),
    ),
  );
  let undone = false;
  const timer = setTimeout(async () => {
    const result = await dispatch(monitorsApi.endpoints.deleteMonitor.initiate(monitor.id));
    if ('error' in result && result.error) {
      hidden.undo();
      toast.error('The monitor could not be deleted. Please try again.');
    }
  }, UNDO_WINDOW_MS);
  toast(`Deleted “${monitor.name || monitor.query}”`, {
    duration: UNDO_WINDOW_MS,
    action: {
      label: 'Undo',
      onClick: () => {
        if (undone) return;
        undone = true;
        clearTimeout(timer);
        hidden.undo();
      },
    },
  });
}
