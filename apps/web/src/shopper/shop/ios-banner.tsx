import { TriangleAlert, X } from "lucide-react";
import { useState } from "react";
import { sv } from "../sv.ts";

/** An iPhone or iPad running the page as an app from the home screen, where the camera is least reliable. */
export function isIosHomeScreenApp(): boolean {
  const standalone = (navigator as { standalone?: boolean }).standalone === true;
  const ios =
    /iPad|iPhone|iPod/.test(navigator.userAgent) ||
    // iPadOS reports itself as a Mac, but a Mac has no touch screen.
    (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  return standalone && ios;
}

const DISMISSED_KEY = "glide_ios_banner_dismissed";

/** The amber note that camera scanning works best in Safari; shown only to home-screen apps on iOS. */
export function IosBanner() {
  const [shown, setShown] = useState(() => {
    try {
      return isIosHomeScreenApp() && sessionStorage.getItem(DISMISSED_KEY) !== "1";
    } catch {
      return isIosHomeScreenApp();
    }
  });
  if (!shown) return null;
  const dismiss = () => {
    setShown(false);
    try {
      sessionStorage.setItem(DISMISSED_KEY, "1");
    } catch {
      // Not remembered: it shows again on the next page load.
    }
  };
  return (
    <aside className="flex items-start gap-3 rounded-2xl bg-warning-muted px-4 py-3 text-warning" aria-label="Safari">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div className="flex-1">
        <p className="font-medium">{sv.shop.iosBanner}</p>
        {/* A link out of the home-screen app opens the same address in Safari. */}
        <a href={location.href} target="_blank" rel="noopener" className="font-semibold underline underline-offset-4">
          {sv.shop.iosOpen}
        </a>
      </div>
      <button
        type="button"
        onClick={dismiss}
        aria-label={sv.shop.iosDismiss}
        className="-m-2 flex size-11 shrink-0 items-center justify-center rounded-full"
      >
        <X aria-hidden="true" className="size-5" />
      </button>
    </aside>
  );
}
