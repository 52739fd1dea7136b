import { type SourceName, sourceDescriptor } from '../../shared/sources.ts';
import { cn } from '../lib/cn.ts';

/** The site's mark as a small badge, named for screen readers. */
export function SourceIcon({ source, className }: { source: SourceName; className?: string }) {
  const { label, icon, colour } = sourceDescriptor(source);
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      style={{ backgroundColor: colour }}
      className={cn(
        'inline-flex size-6 shrink-0 items-center justify-center rounded-md text-xs font-bold text-white',
        className,
      )}
    >
      {icon}
    </span>
  );
}
