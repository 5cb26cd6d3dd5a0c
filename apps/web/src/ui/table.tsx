import clsx from "clsx";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";

/** A data table in a bordered card that scrolls sideways on narrow screens. */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="relative w-full overflow-x-auto rounded-lg border bg-card text-card-foreground">
      <table className={clsx("w-full caption-bottom border-collapse text-sm", className)} {...props} />
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return <thead className={clsx("bg-muted/50 [&_tr]:border-b", className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={clsx("[&_tr:last-child]:border-0", className)} {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={clsx("border-b transition-colors hover:bg-muted/40", className)} {...props} />;
}

export function TableHead({ className, ...props }: ComponentProps<"th">) {
  return (
    <th
      scope="col"
      className={clsx(
        "h-11 whitespace-nowrap px-3 text-left align-middle font-medium text-muted-foreground",
        className,
      )}
      {...props}
    />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={clsx("px-3 py-2.5 align-middle", className)} {...props} />;
}

interface TableSortHeadProps {
  children: ReactNode;
  /** The order this column sorts by now, or false when another column sorts. */
  sorted: "asc" | "desc" | false;
  onSort: () => void;
  className?: string;
}

/** A column header that sorts: a button inside the th, which carries aria-sort while it is active. */
export function TableSortHead({ children, sorted, onSort, className }: TableSortHeadProps) {
  const Icon = sorted === "asc" ? ArrowUp : sorted === "desc" ? ArrowDown : ArrowUpDown;
  return (
    <TableHead
      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
      className={className}
    >
      <button
        type="button"
        onClick={onSort}
        className={clsx(
          "-ml-2 inline-flex h-8 items-center gap-1.5 rounded-md px-2 hover:bg-accent hover:text-accent-foreground",
          sorted && "text-foreground",
        )}
      >
        {children}
        <Icon aria-hidden="true" className={clsx("size-3.5", !sorted && "opacity-50")} />
      </button>
    </TableHead>
  );
}
