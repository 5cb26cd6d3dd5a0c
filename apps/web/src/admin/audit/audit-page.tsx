import type { AuditListItem } from "@glide/contracts";
import { useState } from "react";
import { ErrorAlert } from "../../ui/alert.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { PageHeader } from "../shell/page-header.tsx";
import { PagedList } from "../shell/paged-list.tsx";
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

  return (
    <>
      <AuditToolbar params={params} total={log.data?.total} />
      <PagedList
        query={log}
        paging={params}
        pageSizes={AUDIT_PAGE_SIZES}
        loadingLabel="Loading the audit log"
        errorLabel="Failed to load the audit log"
      >
        {(entries, busy) =>
          isMobile ? (
            <AuditListCards entries={entries} onOpen={setOpen} busy={busy} />
          ) : (
            <AuditTable entries={entries} onOpen={setOpen} busy={busy} />
          )
        }
      </PagedList>
      <AuditEntryDialog id={open?.id ?? null} summary={open?.summary} onClose={() => setOpen(null)} />
    </>
  );
}
