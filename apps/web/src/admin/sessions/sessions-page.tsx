import { lazy, Suspense, useCallback, useEffect } from "react";
import { useDocumentTitle } from "../../lib/use-document-title.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { PageHeader } from "../shell/page-header.tsx";
import { SessionDetailDialog } from "./session-detail-dialog.tsx";
import { SessionsView } from "./sessions-view.tsx";
import { type SessionView, useSessionParams } from "./use-session-params.ts";
import { useSessionInvalidation } from "./use-sessions.ts";
import { type SessionsLiveEvent, useSessionsLive } from "./use-sessions-live.ts";

const DisputesView = lazy(() => import("./disputes-view.tsx"));
const SpotChecksView = lazy(() => import("./spot-checks-view.tsx"));

const DESCRIPTION =
  "Live and past visits to your stores: who is inside, what is in their carts, and how each visit ended.";
const VIEWS: { value: SessionView; label: string }[] = [
  { value: "sessions", label: "Sessions" },
  { value: "disputes", label: "Disputes" },
  { value: "spot-checks", label: "Spot checks" },
];

export default function SessionsPage() {
  useDocumentTitle("Sessions");
  const params = useSessionParams();
  const invalidate = useSessionInvalidation();
  const live = useSessionsLive(useCallback((event: SessionsLiveEvent) => invalidate(event), [invalidate]));
  // Events sent while the feed was down are lost: each time it is (back) up, what is shown is read again.
  useEffect(() => {
    if (live === "live") invalidate(null);
  }, [live, invalidate]);

  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader title="Sessions" description={DESCRIPTION} actions={<LiveIndicator state={live} />} />
      <Tabs value={params.view} onValueChange={(value) => params.setView(value as SessionView)}>
        <TabsList aria-label="Views" className="sm:w-auto">
          {VIEWS.map((view) => (
            <TabsTrigger key={view.value} value={view.value}>
              {view.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {VIEWS.map((view) => (
          <TabsContent key={view.value} value={view.value} className="grid grid-cols-1 gap-4">
            {params.view === view.value ? (
              <Suspense fallback={<Spinner label={`Loading ${view.label.toLowerCase()}`} />}>
                {view.value === "sessions" ? (
                  <SessionsView params={params} />
                ) : view.value === "disputes" ? (
                  <DisputesView />
                ) : (
                  <SpotChecksView />
                )}
              </Suspense>
            ) : null}
          </TabsContent>
        ))}
      </Tabs>
      <SessionDetailDialog id={params.session} onClose={() => params.openSession(null)} />
    </div>
  );
}

/** Whether the screen follows changes as they happen; the browser reconnects by itself when it is not. */
function LiveIndicator({ state }: { state: "live" | "connecting" }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
      <span
        aria-hidden="true"
        className={`size-2.5 rounded-full ${state === "live" ? "bg-success animate-pulse" : "bg-muted-foreground"}`}
      />
      {state === "live" ? "Live" : "Connecting…"}
    </p>
  );
}
