import { useEffect, useRef, useState } from "react";

/** One change in a visit, as the server announces it on /api/v1/admin/sessions/live. */
export type SessionsLiveEvent = { store_id: string | null; session_id: string; kind: string };

export const SESSIONS_LIVE_URL = "/api/v1/admin/sessions/live";

/**
 * Listens to the console's live feed of visit changes (server-sent events,
 * only of stores the admin may see) and calls `onEvent` for each. The browser
 * reconnects by itself; "connecting" tells the screen to say it is not live.
 */
export function useSessionsLive(onEvent: (event: SessionsLiveEvent) => void): "live" | "connecting" {
  const [state, setState] = useState<"live" | "connecting">("connecting");
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const source = new EventSource(SESSIONS_LIVE_URL);
    source.onopen = () => setState("live");
    source.onerror = () => setState("connecting");
    source.onmessage = (message) => {
      try {
        handler.current(JSON.parse(message.data) as SessionsLiveEvent);
      } catch {
        // A message that is not JSON is ignored; the next change brings fresh data anyway.
      }
    };
    return () => source.close();
  }, []);
  return state;
}
