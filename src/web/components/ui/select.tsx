import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** A native select styled like the inputs: accessible and comfortable on phones. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      data-slot="select"
      className={cn(
        'h-10 w-full rounded-md border border-input bg-card px-3 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/30 disabled:opacity-50 sm:text-sm',
        className,
      )}
      {...props}
    />
  );
}
