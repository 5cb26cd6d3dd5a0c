import { useSidebar } from "../../ui/sidebar.tsx";
import { PagedList } from "../shell/paged-list.tsx";
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

  const filtered = Boolean(params.query || params.storeId || params.status || params.from || params.to);
  const empty = filtered ? "No sessions match these filters" : "No one has entered a store yet";
  return (
    <>
      <SessionToolbar params={params} total={list.data?.total} capped={list.data?.capped} />
      <PagedList
        query={list}
        paging={params}
        pageSizes={SESSION_PAGE_SIZES}
        loadingLabel="Loading sessions"
        errorLabel="Failed to load the sessions"
      >
        {(sessions, busy) => {
          const props = { sessions, onOpen: params.openSession, busy, empty };
          return isMobile ? <SessionListCards {...props} /> : <SessionTable {...props} />;
        }}
      </PagedList>
    </>
  );
}
