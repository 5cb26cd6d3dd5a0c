import { useEffect } from "react";

export const APP_NAME = "Glide";

/** The browser tab and history say which screen this is: "Stores · Glide". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
}
