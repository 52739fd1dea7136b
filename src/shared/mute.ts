import { z } from 'zod';
import { SOURCE_NAMES } from './sources.ts';

/** Wire contract of /api/mutes: what a mute link of an alert email did (or would do). */
export const muteResultSchema = z.object({
  muted: z.boolean(),
  kind: z.enum(['thread', 'author', 'community']),
  source: z.enum(SOURCE_NAMES),
  /** The thread id, the author's name or the community. */
  value: z.string(),
  /** The thread's title, when a thread is muted. */
  title: z.string().nullable(),
  /** The term the mute adds to the monitor's query (`-author:x`); null for a thread. */
  exclusion: z.string().nullable(),
  monitor: z.object({ id: z.string(), name: z.string(), query: z.string() }),
});
export type MuteResult = z.infer<typeof muteResultSchema>;
