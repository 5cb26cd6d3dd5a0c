import { useState } from "react";
import { buttonClass } from "../components/button.ts";
import { useDevTools } from "../lib/use-dev-tools.ts";
import { sv } from "../sv.ts";

/** The spec's Quick Dev Login, shown only when the server runs with DEV_TOOLS. */
export function DevLoginButton({ onLogin }: { onLogin: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const devTools = useDevTools();
  if (!devTools) return null;

  async function login() {
    setBusy(true);
    await onLogin();
    setBusy(false);
  }

  return (
    <section aria-label={sv.common.devTools} className="flex flex-col gap-2">
      <button type="button" className={buttonClass("dev")} disabled={busy} onClick={() => void login()}>
        {sv.login.devLogin}
      </button>
    </section>
  );
}
