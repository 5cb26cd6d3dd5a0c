import { type ReactNode, useEffect } from "react";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Pagination } from "../../ui/pagination.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { SessionListCards, SessionTable } from "./session-table.tsx";
import { SessionToolbar } from "./session-toolbar.tsx";
import { SESSION_PAGE_SIZES, type SessionParams } from "./use-session-params.ts";
import { useSessionList } from "./use-sessions.ts";

/** The list of visits: filters, a table (cards on a phone) and pages, all kept in the URL. */
export function SessionsView({ params }: { params: SessionParams }) {
  const { isMobile } = useSidebar();
  const list = useSessionList({
    store_id: params.storeId || undefined,
    status: params.status || undefined,
    search: params.query.trim() || undefined,
    from: params.from || undefined,
    to: params.to || undefined,
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });

  const total = list.data?.total;
  const pageCount = Math.max(1, Math.ceil((total ?? 0) / params.pageSize));
  const { page, setPage } = params;
  // Past the end (a shared link, a narrower filter): show the last page.
  useEffect(() => {
    if (total !== undefined && page > pageCount) setPage(pageCount);
  }, [total, page, pageCount, setPage]);

  const filtered = Boolean(params.query || params.storeId || params.status || params.from || params.to);
  let body: ReactNode;
  if (list.isPending) {
    body = <Spinner label="Loading sessions" />;
  } else if (list.isError && !list.data) {
    body = (
      <div className="grid justify-items-start gap-3">
        <ErrorAlert>{errorMessage(list.error, "Failed to load the sessions")}</ErrorAlert>
        <Button variant="outline" onClick={() => void list.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    const sessions = list.data?.items ?? [];
    const props = {
      sessions,
      onOpen: params.openSession,
      busy: list.isPlaceholderData,
      empty: filtered ? "No sessions match these filters" : "No one has entered a store yet",
    };
    body = (
      <>
        {list.isError ? <ErrorAlert>{errorMessage(list.error, "Failed to load the sessions")}</ErrorAlert> : null}
        {isMobile ? <SessionListCards {...props} /> : <SessionTable {...props} />}
        {total ? (
          <Pagination
            page={Math.min(page, pageCount)}
            pageCount={pageCount}
            onPageChange={setPage}
            pageSize={params.pageSize}
            pageSizes={SESSION_PAGE_SIZES}
            onPageSizeChange={params.setPageSize}
          />
        ) : null}
      </>
    );
  }
  return (
    <>
      <SessionToolbar params={params} total={total} />
      {body}
    </>
  );
}
