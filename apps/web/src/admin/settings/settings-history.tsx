import { SETTING_CATEGORIES, type SettingCategory, type SettingChange } from "@glide/contracts";
import { ArrowRight } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { formatValueInline } from "./setting-format.ts";
import { useDateFormat } from "./use-date-format.ts";
import { useSettingHistory } from "./use-settings.ts";

const ALL = "all";

interface SettingsHistoryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Who changed which setting when, globally or for a store, newest first. */
export function SettingsHistoryDialog({ open, onOpenChange }: SettingsHistoryDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Settings History" description="Recent changes, newest first" className="max-w-2xl">
        <DialogBody>{open ? <HistoryList /> : null}</DialogBody>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function HistoryList() {
  const filterId = useId();
  const [category, setCategory] = useState<SettingCategory | typeof ALL>(ALL);
  const history = useSettingHistory(category === ALL ? undefined : category);
  const changes = history.data?.pages.flatMap((page) => page.items) ?? [];
  const total = history.data?.pages[0]?.total ?? 0;

  let list: ReactNode;
  if (history.isPending) list = <Spinner label="Loading history" />;
  else if (history.isError && changes.length === 0)
    list = <ErrorAlert>{errorMessage(history.error, "Failed to load the history")}</ErrorAlert>;
  else if (changes.length === 0) list = <p className="py-8 text-center text-muted-foreground">No changes yet</p>;
  else
    list = (
      <ol aria-label="Changes" className="grid gap-3">
        {changes.map((change) => (
          <ChangeItem key={change.id} change={change} />
        ))}
      </ol>
    );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <Label htmlFor={filterId}>Category</Label>
        <Select
          id={filterId}
          className="w-44"
          value={category}
          onChange={(event) => setCategory(event.target.value as SettingCategory | typeof ALL)}
        >
          <option value={ALL}>All categories</option>
          {SETTING_CATEGORIES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
        {total > 0 ? (
          <p aria-live="polite" className="ml-auto text-sm text-muted-foreground tabular-nums">
            {`${changes.length} of ${total}`}
          </p>
        ) : null}
      </div>
      {list}
      {history.hasNextPage ? (
        <Button
          variant="outline"
          className="justify-self-center"
          disabled={history.isFetchingNextPage}
          aria-busy={history.isFetchingNextPage}
          onClick={() => void history.fetchNextPage()}
        >
          Load more
        </Button>
      ) : null}
    </div>
  );
}

function ChangeItem({ change }: { change: SettingChange }) {
  const { category, key } = change;
  const removed = change.store_id !== null && change.new_value === null;
  const added = change.store_id !== null && change.old_value === null;
  const dates = useDateFormat();
  return (
    <li className="grid gap-1.5 rounded-md border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono font-medium break-all">{`${category}/${key}`}</span>
        <Badge variant={change.store_id ? "outline" : "secondary"}>
          {change.store_id ? `Store: ${change.store_name ?? "deleted store"}` : "Global"}
        </Badge>
      </div>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 break-words [overflow-wrap:anywhere]">
        <span className="text-muted-foreground">
          {added ? "(no override)" : formatValueInline(category, key, change.old_value)}
        </span>
        <ArrowRight aria-hidden="true" className="size-3.5 shrink-0" />
        <span className="sr-only">changed to</span>
        <span className="font-medium">
          {removed ? "(override removed)" : formatValueInline(category, key, change.new_value)}
        </span>
      </p>
      <p className="text-xs text-muted-foreground">
        <time dateTime={change.changed_at}>{dates.dateTime(change.changed_at)}</time>
        {` by ${change.changed_by ?? "an unknown admin"}`}
      </p>
    </li>
  );
}
