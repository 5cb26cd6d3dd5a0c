import type { LucideIcon } from "lucide-react";
import { useId } from "react";
import { CardContent, CardHeader, CardTitle } from "../../ui/card.tsx";

interface StatCardProps {
  title: string;
  value: string;
  description: string;
  icon: LucideIcon;
}

/** A labelled region per figure, so each can be found by its title. */
export function StatCard({ title, value, description, icon: Icon }: StatCardProps) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-lg border bg-card text-card-foreground shadow-xs">
      <CardHeader className="flex-row items-center justify-between pb-2">
        <CardTitle id={titleId} className="text-sm font-medium">
          {title}
        </CardTitle>
        <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
      </CardHeader>
      <CardContent>
        <p data-testid="stat-value" className="text-2xl font-bold tabular-nums">
          {value}
        </p>
        <p className="text-xs text-muted-foreground">{description}</p>
      </CardContent>
    </section>
  );
}
