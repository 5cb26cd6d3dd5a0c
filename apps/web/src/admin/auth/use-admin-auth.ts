import { type AdminMe, adminMeSchema } from "@glide/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";

export const adminKeys = {
  all: ["admin"] as const,
  me: () => [...adminKeys.all, "me"] as const,
};

/** The server answers 204 (no body) when nobody is signed in. */
const meSchema = adminMeSchema.optional();

/** The signed-in admin, or null when nobody is signed in (the admin layout then sends the visitor to /login). */
export function useMe() {
  return useQuery<AdminMe | null>({
    queryKey: adminKeys.me(),
    queryFn: async ({ signal }) => (await api.get("/api/v1/admin/me", meSchema, { signal })) ?? null,
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
