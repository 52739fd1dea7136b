import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { SOURCE_LABELS, SOURCE_NAMES, type SourceName } from '../../../shared/sources.ts';
import { SourceIcon } from '../../components/source-badge.tsx';
import { cn } from '../../lib/cn.ts';
import { paths } from '../../lib/paths.ts';
import { type SourceHealth, useGetSourceHealthQuery } from '../../lib/source-health-api.ts';
import { useNow } from '../../lib/use-now.ts';
import { describeSiteState, type SiteState } from './site-state.ts';

const DOT: Record<SiteState['tone'], string> = {
  ok: 'bg-emerald-500',
  warning: 'bg-amber-500',
  failing: 'bg-red-500',
  off: 'bg-muted-foreground/40',
};

/**
 * The sites a monitor watches, one box each, with how each site is doing (GET /api/health):
 * working, not configured (with a link to how to set it up) or failing since when.
 */
export function SitesField({
  registration,
  error,
}: {
  registration: UseFormRegisterReturn<'sources'>;
  error: string | undefined;
}) {
  const { data: health } = useGetSourceHealthQuery();
  const errorId = useId();
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">Sites</legend>
      <ul className="grid grid-cols-1 gap-2">
        {SOURCE_NAMES.map((source) => (
          <SiteOption
            key={source}
            source={source}
            health={health?.find((entry) => entry.source === source)}
            registration={registration}
          />
        ))}
      </ul>
      {error ? (
        <p id={errorId} className="text-sm text-destructive" data-testid="sources-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function SiteOption({
  source,
  health,
  registration,
}: {
  source: SourceName;
  health: SourceHealth | undefined;
  registration: UseFormRegisterReturn<'sources'>;
}) {
  const now = useNow();
  const stateId = useId();
  const state = health ? describeSiteState(health, { now }) : null;
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
      data-testid="site-option"
      data-source={source}
      data-state={health?.state}
    >
      <label className="flex min-h-6 cursor-pointer items-center gap-2">
        <input
          type="checkbox"
          value={source}
          className="size-4 accent-[var(--primary)]"
          aria-describedby={state ? stateId : undefined}
          {...registration}
        />
        <SourceIcon source={source} className="size-5" />
        {SOURCE_LABELS[source]}
      </label>
      {state ? (
        <span
          id={stateId}
          className="ml-auto flex flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground"
          data-testid="site-state"
          title={state.detail ?? undefined}
        >
          <span
            aria-hidden="true"
            className={cn('size-1.5 shrink-0 rounded-full', DOT[state.tone])}
          />
          {state.text}
          {state.needsSetUp ? (
            <>
              <span aria-hidden="true">·</span>
              <a
                href={paths.about.href('sites')}
                target="_blank"
                rel="noopener noreferrer"
                className="font-medium text-primary underline-offset-2 hover:underline"
              >
                How to set it up
              </a>
            </>
          ) : null}
        </span>
      ) : null}
      {state?.detail ? (
        <p className="basis-full text-xs wrap-anywhere text-muted-foreground">{state.detail}</p>
      ) : null}
    </li>
  );
}
