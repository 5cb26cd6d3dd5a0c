import type { Store } from "@glide/contracts";
import { Calendar, Globe, Mail, MapPin, Pencil, Phone, Puzzle, Trash } from "lucide-react";
import { useId } from "react";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { CardContent, CardFooter } from "../../ui/card.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { useDateFormat } from "../settings/use-date-format.ts";

interface StoreCardProps {
  store: Store;
  /** Platform admins select, delete and manage modules; store admins only edit. */
  canManage: boolean;
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
  onEdit: () => void;
  onModules: () => void;
  onDelete: () => void;
}

const detailClass = "flex min-w-0 items-center gap-2";
const iconClass = "size-3.5 shrink-0 text-muted-foreground";

function activeModuleCount(store: Store): number {
  return Object.values(store.settings.modules).filter((module) => module.enabled).length;
}

/** Only http(s) addresses become links; anything else is shown as text. */
function safeHref(website: string): string | undefined {
  return /^https?:\/\//i.test(website) ? website : undefined;
}

export function StoreCard(props: StoreCardProps) {
  const { store, canManage, selected, onSelectedChange, onEdit, onModules, onDelete } = props;
  const titleId = useId();
  const dates = useDateFormat();
  const href = store.website ? safeHref(store.website) : undefined;

  return (
    <article
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col rounded-lg border bg-card text-card-foreground shadow-xs"
    >
      <CardContent className="flex flex-1 flex-col gap-3 pt-5">
        <div className="flex items-start gap-3">
          {canManage ? (
            <Checkbox
              className="mt-0.5"
              aria-label={`Select ${store.name}`}
              checked={selected}
              onCheckedChange={(checked) => onSelectedChange(checked === true)}
            />
          ) : null}
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="truncate font-semibold leading-tight">
              {store.name}
            </h2>
            <p className="mt-1 flex items-center gap-1 text-sm text-muted-foreground">
              <MapPin aria-hidden="true" className="size-3.5 shrink-0" />
              {store.city ?? "No location"}
            </p>
          </div>
          <Badge variant={store.is_active ? "success" : "secondary"}>{store.is_active ? "Active" : "Inactive"}</Badge>
        </div>

        <dl className="grid grid-cols-1 gap-1.5 text-sm">
          {store.organization_number ? (
            <div className="flex gap-1">
              <dt className="text-muted-foreground">Org. no.:</dt>
              <dd className="tabular-nums">{store.organization_number}</dd>
            </div>
          ) : null}
          {store.phone ? (
            <div>
              <dt className="sr-only">Phone</dt>
              <dd className={detailClass}>
                <Phone aria-hidden="true" className={iconClass} />
                {store.phone}
              </dd>
            </div>
          ) : null}
          {store.email ? (
            <div>
              <dt className="sr-only">Email</dt>
              <dd className={detailClass}>
                <Mail aria-hidden="true" className={iconClass} />
                <span className="truncate">{store.email}</span>
              </dd>
            </div>
          ) : null}
          {store.website ? (
            <div>
              <dt className="sr-only">Website</dt>
              <dd className={detailClass}>
                <Globe aria-hidden="true" className={iconClass} />
                {href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer" className="truncate text-primary underline">
                    {store.website}
                  </a>
                ) : (
                  <span className="truncate">{store.website}</span>
                )}
              </dd>
            </div>
          ) : null}
        </dl>

        <div className="mt-auto grid grid-cols-1 gap-1 text-sm text-muted-foreground">
          <p className="flex items-center gap-2">
            <Puzzle aria-hidden="true" className="size-3.5" />
            Active Modules: {activeModuleCount(store)}
          </p>
          <p className="flex items-center gap-2">
            <Calendar aria-hidden="true" className="size-3.5" />
            Created {dates.date(store.created_at)}
          </p>
        </div>
      </CardContent>
      <CardFooter className="flex-wrap">
        <Button variant="outline" size="sm" onClick={onEdit}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        {canManage ? (
          <>
            <Button variant="outline" size="sm" onClick={onModules}>
              <Puzzle aria-hidden="true" />
              Modules
            </Button>
            <Button variant="ghost" size="sm" className="ml-auto text-destructive" onClick={onDelete}>
              <Trash aria-hidden="true" />
              Delete
            </Button>
          </>
        ) : null}
      </CardFooter>
    </article>
  );
}
