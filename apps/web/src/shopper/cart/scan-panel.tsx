import { Camera } from "lucide-react";
import { useRef, useState } from "react";
import { buttonClass } from "../components/button.ts";
import { BarcodeScanner } from "../scanner/barcode-scanner.tsx";
import { sv } from "../sv.ts";
import { StatusLine } from "./status-line.tsx";
import type { ShoppingCart } from "./use-cart.ts";

/**
 * The start button, the scanner with 'Avbryt' while it runs, and the scan's
 * answer under it. A read code closes the scanner, then is sent (spec §4).
 */
export function ScanPanel({
  cart,
  box,
  zoom = false,
  startLabel,
  prompt,
}: {
  cart: ShoppingCart;
  box: "share" | "fixed";
  zoom?: boolean;
  startLabel: string;
  prompt?: string;
}) {
  const [scanning, setScanning] = useState(false);
  const startButton = useRef<HTMLButtonElement>(null);

  const close = () => {
    setScanning(false);
    // Keyboard and screen-reader users land where they started.
    requestAnimationFrame(() => startButton.current?.focus());
  };

  const start = () => {
    if (!cart.sessionId) {
      cart.say({ tone: "error", text: sv.scan.noSession });
      return;
    }
    cart.say(null);
    setScanning(true);
  };

  return (
    <div className="flex flex-col gap-3">
      {scanning ? (
        <>
          <BarcodeScanner
            box={box}
            zoom={zoom}
            onDetected={(code) => {
              close();
              void cart.scan(code);
            }}
            onError={() => {
              close();
              cart.say({ tone: "error", text: sv.scan.camera });
            }}
          />
          <button type="button" onClick={close} className={buttonClass("secondary")}>
            {sv.common.cancel}
          </button>
        </>
      ) : (
        <>
          {prompt && <p className="text-center text-muted-foreground">{prompt}</p>}
          <button ref={startButton} type="button" onClick={start} className={buttonClass("primary")}>
            <Camera aria-hidden="true" className="size-5" />
            {startLabel}
          </button>
        </>
      )}
      <StatusLine message={cart.message} />
    </div>
  );
}
