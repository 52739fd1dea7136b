import { z } from 'zod';

/** POST /api/events/ticket: opens the live feed once, as `GET /api/events?ticket=…`. */
export const eventsTicketSchema = z.object({
  ticket: z.string(),
  /** ISO 8601: the ticket is refused after this (30 s after it was made). */
  expiresAt: z.string(),
});
export type EventsTicket = z.infer<typeof eventsTicketSchema>;
