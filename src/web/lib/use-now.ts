import { useEffect, useState } from 'react';

/** The current time, updated every `intervalMs`, so "2 min ago" keeps telling the truth. */
export function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
