import { type ReactNode, useEffect } from "react";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Pagination } from "../../ui/pagination.tsx";
import { Spinner } from "../../ui/spinner.tsx";

/** What a list screen's query gives: one page of items and the number of all matches. */
interface PageQuery<T> {
  data?: { items: T[]; total: number };
  isPending: boolean;
  isError: boolean;
  isPlaceholderData: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface Paging {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
}

interface PagedListProps<T> {
  query: PageQuery<T>;
  paging: Paging;
  pageSizes: readonly number[];
  /** The spinner's words, e.g. "Loading sessions". */
  loadingLabel: string;
  /** The error's fallback words, e.g. "Failed to load the sessions". */
  errorLabel: string;
  /** The page's items as a table or cards; `busy` while the next page is on its way. */
  children: (items: T[], busy: boolean) => ReactNode;
}

/**
 * A console list's states: loading, failed (with Try again), or the page with its paging.
 * A failed reload keeps the rows on screen and says so above them.
 */
export function PagedList<T>({ query, paging, pageSizes, loadingLabel, errorLabel, children }: PagedListProps<T>) {
  const total = query.data?.total;
  const pageCount = Math.max(1, Math.ceil((total ?? 0) / paging.pageSize));
  const { page, setPage } = paging;
  // Past the end (a shared link, a narrower filter, the last row of the last page deleted): show the last page.
  useEffect(() => {
    if (total !== undefined && page > pageCount) setPage(pageCount);
  }, [total, page, pageCount, setPage]);

  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError && !query.data) {
    return (
      <div className="grid justify-items-start gap-3">
        <ErrorAlert>{errorMessage(query.error, errorLabel)}</ErrorAlert>
        <Button variant="outline" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <>
      {query.isError ? <ErrorAlert>{errorMessage(query.error, errorLabel)}</ErrorAlert> : null}
      {children(query.data?.items ?? [], query.isPlaceholderData)}
      {total ? (
        <Pagination
          page={Math.min(page, pageCount)}
          pageCount={pageCount}
          onPageChange={setPage}
          pageSize={paging.pageSize}
          pageSizes={pageSizes}
          onPageSizeChange={paging.setPageSize}
        />
      ) : null}
    </>
  );
}
