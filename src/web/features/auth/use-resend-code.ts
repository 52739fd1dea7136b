import { useCallback, useEffect, useState } from 'react';
import {
  describeIdentityError,
  type IdentityFlow,
  type IdentityProblem,
} from '../../lib/identity-errors.ts';

const COOLDOWN_SECONDS = 30;

/** Sends a new code with a cooldown, so an impatient double click does not burn the hourly limit. */
export function useResendCode(send: () => Promise<unknown>, flow: IdentityFlow) {
  const [busy, setBusy] = useState(false);
  const [cooldown, setCooldown] = useState(0);
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<IdentityProblem | null>(null);

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const resend = useCallback(async () => {
    setBusy(true);
    setProblem(null);
    try {
      await send();
      setSent(true);
      setCooldown(COOLDOWN_SECONDS);
    } catch (error) {
      setProblem(describeIdentityError(error, flow));
    } finally {
      setBusy(false);
    }
  }, [send, flow]);

  return { resend, busy, cooldown, sent, problem };
}
