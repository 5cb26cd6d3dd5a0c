import { useEffect, useState } from "react";
import { log } from "../lib/log.ts";

/**
 * A QR code drawn on this device (qrcode is loaded on first use): the data
 * never leaves the page. Dark modules on white whatever the theme, with a
 * quiet zone, so scanners read it.
 */
export function QrImage({ value, label, size = 256 }: { value: string; label: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void import("qrcode")
      .then((qrcode) => qrcode.toDataURL(value, { width: size, margin: 2, errorCorrectionLevel: "M" }))
      .then((url) => {
        if (current) setSrc(url);
      })
      .catch((error: unknown) => log.warn("Could not draw the QR code", error));
    return () => {
      current = false;
    };
  }, [value, size]);

  return (
    <div className="mx-auto rounded-2xl bg-white p-2 shadow-sm" style={{ width: size + 16, height: size + 16 }}>
      {src ? (
        <img src={src} alt={label} width={size} height={size} className="block" />
      ) : (
        <div
          role="img"
          aria-label={label}
          aria-busy="true"
          className="size-full animate-pulse rounded-lg bg-gray-100"
        />
      )}
    </div>
  );
}
