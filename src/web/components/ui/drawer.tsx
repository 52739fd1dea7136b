import type { ComponentProps } from 'react';
import { Drawer as Vaul } from 'vaul';
import { cn } from '../../lib/cn.ts';

/** The mobile bottom sheet (vaul), in the shadcn/ui drawer manner. */
export const Drawer = Vaul.Root;
export const DrawerTrigger = Vaul.Trigger;
export const DrawerClose = Vaul.Close;
export const DrawerTitle = Vaul.Title;
export const DrawerDescription = Vaul.Description;

export function DrawerContent({
  className,
  children,
  ...props
}: ComponentProps<typeof Vaul.Content>) {
  return (
    <Vaul.Portal>
      <Vaul.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[1px]" />
      <Vaul.Content
        data-slot="drawer-content"
        className={cn(
          'fixed inset-x-0 bottom-0 z-50 mt-24 flex max-h-[85vh] flex-col rounded-t-2xl border-t bg-card pb-[env(safe-area-inset-bottom)] text-card-foreground shadow-2xl outline-none',
          className,
        )}
        {...props}
      >
        <div
          aria-hidden="true"
          className="mx-auto mt-3 mb-2 h-1.5 w-12 shrink-0 rounded-full bg-muted-foreground/30"
        />
        {children}
      </Vaul.Content>
    </Vaul.Portal>
  );
}
