import clsx from "clsx";
import { Package } from "lucide-react";
import { useState } from "react";
import { apiUrl } from "../../lib/api.ts";

/**
 * Where the browser may load a product photo from. The console's content security policy
 * allows images from its own origin only, so other addresses are not shown (the shopper
 * app and exports still carry them).
 */
export function productImageSrc(url: string | null | undefined): string | undefined {
  const value = url?.trim();
  if (!value) return undefined;
  if (value.startsWith("/api/")) return apiUrl(value);
  try {
    return new URL(value).origin === window.location.origin ? value : undefined;
  } catch {
    return undefined;
  }
}

interface ProductImageProps {
  url: string | null | undefined;
  alt: string;
  className?: string;
}

/** The photo, or a package icon when there is none or it does not load. */
export function ProductImage({ url, alt, className }: ProductImageProps) {
  const src = productImageSrc(url);
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <div className={clsx("flex items-center justify-center overflow-hidden bg-muted", className)}>
      {src && failed !== src ? (
        <img
          src={src}
          alt={alt}
          loading="lazy"
          decoding="async"
          className="size-full object-contain"
          onError={() => setFailed(src)}
        />
      ) : (
        <Package aria-hidden="true" className="size-10 text-muted-foreground" />
      )}
    </div>
  );
}
