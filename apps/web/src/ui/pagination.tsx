import clsx from "clsx";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useId } from "react";
import { Button } from "./button.tsx";
import { Label } from "./label.tsx";
import { Select } from "./select.tsx";

interface PaginationProps {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  pageSize: number;
  pageSizes: readonly number[];
  onPageSizeChange: (size: number) => void;
  className?: string;
}

// aria-disabled rather than disabled: paging to the end keeps keyboard focus on the button.
const edgeClass = "aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-disabled:hover:bg-card";

/** Previous / Next with "Page x of y", and a page size choice. */
export function Pagination(props: PaginationProps) {
  const { page, pageCount, onPageChange, pageSize, pageSizes, onPageSizeChange, className } = props;
  const sizeId = useId();
  const first = page <= 1;
  const last = page >= pageCount;
  return (
    <nav aria-label="Pagination" className={clsx("flex flex-wrap items-center justify-between gap-3", className)}>
      <div className="flex items-center gap-2">
        <Label htmlFor={sizeId} className="font-normal text-muted-foreground">
          Per page
        </Label>
        <Select
          id={sizeId}
          className="w-22"
          value={String(pageSize)}
          onChange={(event) => onPageSizeChange(Number(event.target.value))}
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-disabled={first}
          className={edgeClass}
          onClick={() => !first && onPageChange(page - 1)}
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <p aria-live="polite" className="min-w-24 text-center text-sm tabular-nums">
          Page {page} of {pageCount}
        </p>
        <Button
          variant="outline"
          size="sm"
          aria-disabled={last}
          className={edgeClass}
          onClick={() => !last && onPageChange(page + 1)}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
