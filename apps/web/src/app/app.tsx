import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { createQueryClient } from "../lib/query-client.ts";
import { ErrorBoundary } from "./error-boundary.tsx";
import { router } from "./router.tsx";

const queryClient = createQueryClient({
  onUnauthorized: () => {
    const { pathname, search, hash } = router.state.location;
    // The shopper app has its own sign-in; /login needs no redirect to itself.
    if (pathname === "/login" || pathname.startsWith("/customer")) return;
    void router.navigate("/login", { replace: true, state: { from: { pathname, search, hash } } });
  },
});

export function App() {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
