import { UI } from "@glide/contracts";
import { Toaster as Sonner } from "sonner";
import { useTheme } from "../lib/theme.ts";

/** Alt+T moves focus to the notifications. */
export function Toaster() {
  const theme = useTheme();
  return (
    <Sonner
      theme={theme}
      visibleToasts={UI.toastsVisible}
      duration={UI.toastDurationMs}
      hotkey={["altKey", "KeyT"]}
      richColors
      closeButton
    />
  );
}
