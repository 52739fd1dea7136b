import { SOURCE_LABELS, type SourceName } from '../../shared/sources.ts';
import { cn } from '../lib/cn.ts';

const STYLES: Record<SourceName, { letter: string; className: string }> = {
  hackernews: { letter: 'Y', className: 'bg-orange-600 text-white' },
  reddit: { letter: 'r', className: 'bg-orange-700 text-white' },
  lobsters: { letter: 'L', className: 'bg-red-800 text-white' },
};

/** The site's mark as a small badge, named for screen readers. */
export function SourceIcon({ source, className }: { source: SourceName; className?: string }) {
  const style = STYLES[source];
  return (
    <span
      role="img"
      aria-label={SOURCE_LABELS[source]}
      title={SOURCE_LABELS[source]}
      className={cn(
        'inline-flex size-6 shrink-0 items-center justify-center rounded-md text-xs font-bold',
        style.className,
        className,
      )}
    >
      {style.letter}
    </span>
  );
}
