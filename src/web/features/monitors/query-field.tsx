import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { MONITOR_QUERY_MAX_LENGTH } from '../../../shared/monitor.ts';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { QueryText } from './query-text.tsx';
import type { QueryProblem } from './use-query-check.ts';

/**
 * The query input, the query shown with its parts coloured, and under it the parser's problem
 * (at its character), the form's own error, or a hint.
 */
export function QueryField({
  registration,
  query,
  problem,
  error,
}: {
  registration: UseFormRegisterReturn<'query'>;
  query: string;
  problem: QueryProblem | null;
  error: string | undefined;
}) {
  const ids = { input: useId(), problem: useId(), hint: useId() };
  const message = problem
    ? problem.position !== undefined
      ? `At character ${problem.position + 1}: ${problem.message}`
      : problem.message
    : error;
  return (
    <div className="grid grid-cols-1 gap-2">
      <Label htmlFor={ids.input}>Query</Label>
      <Input
        id={ids.input}
        placeholder='pglite OR "embedded postgres"'
        autoComplete="off"
        spellCheck={false}
        autoFocus
        className="font-mono"
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? ids.problem : ids.hint}
        maxLength={MONITOR_QUERY_MAX_LENGTH}
        {...registration}
      />
      {query ? (
        <div
          className="rounded-md bg-muted px-3 py-2"
          data-testid="query-highlighted"
          aria-hidden="true"
        >
          <QueryText query={query} errorAt={problem?.position} />
        </div>
      ) : null}
      {message ? (
        <p
          id={ids.problem}
          className="text-sm text-destructive"
          data-testid="query-error"
          role="alert"
        >
          {message}
        </p>
      ) : (
        <p id={ids.hint} className="text-xs text-muted-foreground">
          Plain words work: <code>rust</code> finds “Rust’s”, never “trust”. See the help below for
          phrases, OR, -exclusions and more.
        </p>
      )}
    </div>
  );
}
