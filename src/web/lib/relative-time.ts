const UNITS: [limitSeconds: number, divisor: number, unit: string][] = [
  [60, 1, 's'],
  [3600, 60, 'min'],
  [86_400, 3600, 'h'],
  [7 * 86_400, 86_400, 'd'],
];

/** "just now", "2 min ago", "5 h ago", "3 d ago", then the date ("12 Mar" or "12 Mar 2025"). */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return 'just now';
  for (const [limit, divisor, unit] of UNITS) {
    if (seconds < limit) return `${Math.max(1, Math.round(seconds / divisor))} ${unit} ago`;
  }
  const date = new Date(then);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}
