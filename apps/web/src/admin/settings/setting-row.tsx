import type { Setting } from "@glide/contracts";
import { Lock, Pencil, Store } from "lucide-react";
import { useId } from "react";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { InlineValue } from "./inline-value.tsx";
import { inlineControlOf } from "./setting-editors.ts";
import { formatEntries } from "./setting-format.ts";
import { useDateFormat } from "./use-date-format.ts";

interface SettingRowProps {
  setting: Setting;
  /** Platform admins change global values (the dialog and in place); store admins only set overrides. */
  canEditGlobal: boolean;
  /** The text being edited in place, kept by the page so that it survives a tab change; undefined when none. */
  draft: string | undefined;
  onDraftChange: (draft: string | undefined) => void;
  onEdit: () => void;
  onOverride: () => void;
}

function ValueLines({ setting }: { setting: Setting }) {
  const entries = formatEntries(setting.category, setting.key, setting.value);
  return (
    <ul className="grid gap-0.5 text-sm break-words [overflow-wrap:anywhere]">
      {entries.map((entry, index) => (
        // Entries have no id of their own; their order is the value's.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <li key={index}>
          {entry.name === null ? null : <span className="text-muted-foreground">{`${entry.name}: `}</span>}
          <span className="tabular-nums">{entry.text}</span>
        </li>
      ))}
    </ul>
  );
}

/** One setting: key, description, its value as a person reads it, and what may be done with it. */
export function SettingRow(props: SettingRowProps) {
  const { setting, canEditGlobal, draft, onDraftChange, onEdit, onOverride } = props;
  const titleId = useId();
  const dates = useDateFormat();
  const inline =
    setting.is_editable && canEditGlobal ? inlineControlOf(setting.category, setting.key, setting.value) : null;

  return (
    <article
      aria-labelledby={titleId}
      className="grid min-w-0 gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-xs md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] md:items-start md:gap-6"
    >
      <div className="grid min-w-0 gap-1">
        <h2 id={titleId} className="font-mono text-sm font-semibold break-all">
          {setting.key}
        </h2>
        {setting.description ? <p className="text-sm text-muted-foreground">{setting.description}</p> : null}
        {setting.updated_at ? (
          <p className="text-xs text-muted-foreground">{`Updated ${dates.dateTime(setting.updated_at)}`}</p>
        ) : null}
      </div>

      <div className="min-w-0">
        {inline ? (
          <InlineValue setting={setting} control={inline} draft={draft} onDraftChange={onDraftChange} />
        ) : (
          <ValueLines setting={setting} />
        )}
      </div>

      <div className="flex flex-wrap items-start gap-2 md:justify-end">
        {setting.is_editable ? (
          <>
            {canEditGlobal ? (
              <Button variant="outline" size="sm" onClick={onEdit}>
                <Pencil aria-hidden="true" />
                Edit
                <span className="sr-only">{` ${setting.key}`}</span>
              </Button>
            ) : null}
            <Button variant="outline" size="sm" onClick={onOverride}>
              <Store aria-hidden="true" />
              Override
              <span className="sr-only">{` ${setting.key} for a store`}</span>
            </Button>
          </>
        ) : (
          <Badge variant="secondary" className="gap-1">
            <Lock aria-hidden="true" className="size-3" />
            Read-only
          </Badge>
        )}
      </div>
    </article>
  );
}
