import { Link } from "react-router";
import { buttonClass } from "./components/button.ts";
import { PageShell } from "./components/page-shell.tsx";
import { sv } from "./sv.ts";

export function ShopperNotFoundPage() {
  return (
    <PageShell>
      <div className="flex flex-1 flex-col items-center justify-center gap-4 text-center">
        <p className="text-7xl font-extrabold text-primary">{sv.notFound.code}</p>
        <h1 className="text-2xl font-bold">{sv.notFound.title}</h1>
        <p className="text-muted-foreground">{sv.notFound.text}</p>
        <Link to="/customer" className={buttonClass("primary")}>
          {sv.common.backToStart}
        </Link>
      </div>
    </PageShell>
  );
}
