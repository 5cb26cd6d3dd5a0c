import { Download } from "lucide-react";
import { buttonClass } from "../../ui/button.tsx";

/** A table's figures as a CSV download, named after the table it exports. */
export function CsvLink({ href, title }: { href: string; title: string }) {
  return (
    <a href={href} download className={buttonClass("outline", "sm")} aria-label={`Export CSV: ${title}`}>
      <Download aria-hidden="true" className="size-4" />
      Export CSV
    </a>
  );
}
