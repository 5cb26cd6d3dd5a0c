import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError, isUnauthorized } from "./api.ts";

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: {
      /** The sign-in call answers 401 for wrong credentials; that must not redirect. */
      skipAuthRedirect?: boolean;
    };
  }
}

interface QueryClientOptions {
  /** Called when any query or mutation finds the session gone (401). */
  onUnauthorized: () => void;
}

/** The one place for client-side error and retry policy. */
export function createQueryClient({ onUnauthorized }: QueryClientOptions): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (isUnauthorized(error)) onUnauthorized();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _result, mutation) => {
        if (isUnauthorized(error) && !mutation.meta?.skipAuthRedirect) onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx will not change by asking again; network errors and 5xx may.
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status < 500) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}
