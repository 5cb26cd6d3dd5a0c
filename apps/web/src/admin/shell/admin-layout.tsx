import { Suspense } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { SidebarProvider, SidebarTrigger } from "../../ui/sidebar.tsx";
import { FullPageSpinner, Spinner } from "../../ui/spinner.tsx";
import { AdminContext } from "../auth/admin-context.ts";
import { useMe } from "../auth/use-admin-auth.ts";
import { AppSidebar } from "./app-sidebar.tsx";

/** Every console route: waits for the signed-in admin, then shows the sidebar shell. */
export default function AdminLayout() {
  const me = useMe();
  const { pathname, search, hash } = useLocation();

  if (me.isPending) return <FullPageSpinner />;
  // Nobody signed in (the server's 204): to the login page, which brings the visitor back here afterwards.
  if (me.data === null) return <Navigate to="/login" replace state={{ from: { pathname, search, hash } }} />;

  if (me.isError) {
    return (
      <main className="mx-auto flex min-h-svh max-w-md flex-col justify-center gap-4 p-6">
        <ErrorAlert>Could not reach the server. Check your connection and try again.</ErrorAlert>
        <Button variant="outline" onClick={() => void me.refetch()}>
          Try again
        </Button>
      </main>
    );
  }

  return (
    <AdminContext value={me.data}>
      <SidebarProvider>
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-card px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to main content
        </a>
        <AppSidebar />
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-10 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur">
            <SidebarTrigger />
          </header>
          <main id="main" tabIndex={-1} className="flex-1 p-4 focus:outline-none md:p-6">
            <Suspense fallback={<Spinner />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
      </SidebarProvider>
    </AdminContext>
  );
}
