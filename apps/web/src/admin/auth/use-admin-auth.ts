import { type AdminMe, adminMeSchema } from "@glide/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const adminKeys = {
  all: ["admin"] as const,
  me: () => [...adminKeys.all, "me"] as const,
};

/** The signed-in admin; a 401 here sends the visitor to /login (see lib/query-client.ts). */
export function useMe() {
  return useQuery({
    queryKey: adminKeys.me(),
    queryFn: ({ signal }) => api.get("/api/v1/admin/me", adminMeSchema, { signal }),
    staleTime: 5 * 60_000,
  });
}

interface Credentials {
  email: string;
  password: string;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: Credentials) => api.post("/api/v1/admin/login", credentials, adminMeSchema),
    meta: { skipAuthRedirect: true },
    onSuccess: (me: AdminMe) => {
      // Nothing cached for a previous admin may leak into this session.
      queryClient.getQueryCache().clear();
      queryClient.setQueryData(adminKeys.me(), me);
    },
  });
}

export function useLogout() {
  return useMutation({
    mutationFn: () => api.send("POST", "/api/v1/admin/logout"),
    meta: { skipAuthRedirect: true },
  });
}
