import clsx from "clsx";
import { CircleAlert } from "lucide-react";
import { Tabs as TabsPrimitive } from "radix-ui";
import type { ComponentProps } from "react";

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={clsx("flex w-full gap-1 overflow-x-auto rounded-md bg-muted p-1", className)}
      {...props}
    />
  );
}

interface TabsTriggerProps extends ComponentProps<typeof TabsPrimitive.Trigger> {
  /** A field on this tab has a problem: a red mark, and words for screen readers. */
  invalid?: boolean;
}

export function TabsTrigger({ className, invalid = false, children, ...props }: TabsTriggerProps) {
  return (
    <TabsPrimitive.Trigger
      data-invalid={invalid || undefined}
      className={clsx(
        "inline-flex flex-1 items-center justify-center gap-1.5 whitespace-nowrap rounded-sm px-2 py-1.5 sm:px-3 text-sm font-medium text-muted-foreground transition-colors",
        "hover:text-foreground data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm",
        "data-invalid:text-destructive",
        className,
      )}
      {...props}
    >
      {children}
      {invalid ? (
        <>
          <CircleAlert aria-hidden="true" className="size-3.5 shrink-0" />
          <span className="sr-only">(has errors)</span>
        </>
      ) : null}
    </TabsPrimitive.Trigger>
  );
}

/** Inactive panels stay mounted (hidden) so form fields keep their values and can be focused on error. */
export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content forceMount className={clsx("mt-4 data-[state=inactive]:hidden", className)} {...props} />
  );
}
