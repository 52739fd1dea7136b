/** How long a toast offers Undo after a delete or a dismiss, before the change is sent. */
export const UNDO_WINDOW_MS = 6000;
