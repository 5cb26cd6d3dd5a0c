import type { AuditListItem } from "@glide/contracts";
import { type ReactNode, useEffect, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Pagination } from "../../ui/pagination.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { PageHeader } from "../shell/page-header.tsx";
import { AuditEntryDialog } from "./audit-entry-dialog.tsx";
import { AuditListCards } from "./audit-list-cards.tsx";
import { AuditTable } from "./audit-table.tsx";
import { AuditToolbar } from "./audit-toolbar.tsx";
import { useAuditLog } from "./use-audit.ts";
import { AUDIT_PAGE_SIZES, endOfDay, startOfDay, useAuditParams } from "./use-audit-params.ts";

const DESCRIPTION = "Every change made in the console: who, when, what, and the values before and after.";

export default function AuditPage() {
  // The log spans every store and every admin; the server refuses store admins too.
  const allowed = useIsPlatformAdmin();
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader title="Audit log" description={DESCRIPTION} />
      {allowed ? <AuditLog /> : <ErrorAlert>Only platform administrators can see the audit log.</ErrorAlert>}
    </div>
  );
}

function AuditLog() {
  const params = useAuditParams();
  const { isMobile } = useSidebar();
  const [open, setOpen] = useState<AuditListItem | null>(null);
  const log = useAuditLog({
    search: params.query.trim() || undefined,
    action: params.action || undefined,
    // The days are the admin's own; the API gets their exact bounds.
    from: params.from ? startOfDay(params.from) : undefined,
    to: params.to ? endOfDay(params.to) : undefined,
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });

  const total = log.data?.total;
  const pageCount = Math.max(1, Math.ceil((total ?? 0) / params.pageSize));
  const { page, setPage } = params;
  // Past the end (a shared link, a narrower filter): show the last page.
  useEffect(() => {
    if (total !== undefined && page > pageCount) setPage(pageCount);
  }, [total, page, pageCount, setPage]);

  let body: ReactNode;
  if (log.isPending) {
    body = <Spinner label="Loading the audit log" />;
  } else if (log.isError && !log.data) {
    body = (
      <div className="grid justify-items-start gap-3">
        <ErrorAlert>{errorMessage(log.error, "Failed to load the audit log")}</ErrorAlert>
        <Button variant="outline" onClick={() => void log.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    const entries = log.data?.items ?? [];
    const busy = log.isPlaceholderData;
    body = (
      <>
        {log.isError ? <ErrorAlert>{errorMessage(log.error, "Failed to load the audit log")}</ErrorAlert> : null}
        {isMobile ? (
          <AuditListCards entries={entries} onOpen={setOpen} busy={busy} />
        ) : (
          <AuditTable entries={entries} onOpen={setOpen} busy={busy} />
        )}
        {total ? (
          <Pagination
            page={Math.min(page, pageCount)}
            pageCount={pageCount}
            onPageChange={setPage}
            pageSize={params.pageSize}
            pageSizes={AUDIT_PAGE_SIZES}
            onPageSizeChange={params.setPageSize}
          />
        ) : null}
      </>
    );
  }

  return (
    <>
      <AuditToolbar params={params} total={total} />
      {body}
      <AuditEntryDialog id={open?.id ?? null} summary={open?.summary} onClose={() => setOpen(null)} />
    </>
  );
}
