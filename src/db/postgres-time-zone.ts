/**
 * The spelling of a user's time zone that PostgreSQL reads as the browser does. IANA names pass
 * unchanged. A fixed offset (`+05:00`, `+0530`, `-03:30`, which Intl accepts as ISO 8601, east of
 * Greenwich positive) is read by PostgreSQL as a POSIX zone, where positive means west: `+05:00`
 * would put the user's midnight ten hours off. So the offset is normalised and its sign flipped.
 */
export function postgresTimeZone(zone: string): string {
  if (!/^[+-]/.test(zone)) return zone;
  const iso = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  const offset = /^([+-])(\d{2}):(\d{2})$/.exec(iso);
  if (!offset) return zone;
  return `${offset[1] === '+' ? '-' : '+'}${offset[2]}:${offset[3]}`;
}
