import type { Setting } from "@glide/contracts";
import { type FormEvent, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Label } from "../../ui/label.tsx";
import { Select } from "../../ui/select.tsx";
import { useStores } from "../lib/store-list.ts";
import { editorOf, simplePaths } from "./setting-editors.ts";
import { NO_PROBLEMS, placeProblems, type ValueProblems } from "./setting-errors.ts";
import { formatValueInline } from "./setting-format.ts";
import { SettingTitle } from "./setting-title.tsx";
import { overrideOf, useSetStoreOverride, useStoreOverrides } from "./use-settings.ts";
import { useFocusProblem, useValueDraft, ValueEditor } from "./value-editor.tsx";

interface StoreOverrideDialogProps {
  /** The setting to override; the dialog is closed while null. */
  setting: Setting | null;
  onOpenChange: (open: boolean) => void;
}

export function StoreOverrideDialog({ setting, onOpenChange }: StoreOverrideDialogProps) {
  return (
    <Dialog open={setting !== null} onOpenChange={onOpenChange}>
      <DialogContent
        title="Set Store Override"
        description={setting ? <SettingTitle setting={setting} /> : null}
        className="max-w-2xl"
      >
        {setting ? <StoreOverrideForm setting={setting} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function StoreOverrideForm({ setting, onDone }: { setting: Setting; onDone: () => void }) {
  const { category, key } = setting;
  const storeFieldId = useId();
  const stores = useStores("");
  const [storeId, setStoreId] = useState("");
  const overrides = useStoreOverrides(storeId || undefined);
  const current = storeId ? overrideOf(overrides.data?.custom_settings, category, key) : undefined;
  const editor = editorOf(category, key, setting.value);
  const draft = useValueDraft(setting.value, editor !== null);
  const save = useSetStoreOverride();
  const [problems, setProblems] = useState<ValueProblems>(NO_PROBLEMS);
  const formRef = useFocusProblem(problems);
  const storeName = stores.data?.find((store) => store.id === storeId)?.name ?? "This store";

  // A chosen store starts the editor from its own override, unless the person has already changed the value.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the store or its overrides arrive.
  useEffect(() => {
    if (!storeId || !overrides.data || draft.touched) return;
    draft.reset(current === undefined ? setting.value : current);
  }, [storeId, overrides.data]);

  const prefix = `settings.${category}.${key}`;
  const send = (value: unknown, messages: { done: string; failed: string }) => {
    setProblems(NO_PROBLEMS);
    const canPlace = draft.mode === "simple" ? simplePaths(editor, draft.value) : (path: string) => path === "";
    save.mutate(
      { storeId, category, key, value },
      {
        onSuccess: () => {
          toast.success(messages.done);
          onDone();
        },
        // One message: beside the control it is about, or once above the buttons (no toast repeats it).
        onError: (error) => {
          setProblems(
            value === undefined
              ? { byPath: {}, message: errorMessage(error, messages.failed) }
              : placeProblems(error, { prefix, canPlace, fallback: messages.failed }),
          );
        },
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!storeId) return;
    send(draft.value, { done: "Store override set successfully", failed: "Failed to set store override" });
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col">
      <DialogBody className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor={storeFieldId}>Store *</Label>
          <Select
            id={storeFieldId}
            aria-required="true"
            value={storeId}
            onChange={(event) => {
              setStoreId(event.target.value);
              setProblems(NO_PROBLEMS);
            }}
          >
            <option value="" disabled hidden>
              {stores.isPending ? "Loading stores..." : "Select a store"}
            </option>
            {(stores.data ?? []).map((store) => (
              <option key={store.id} value={store.id}>
                {store.name}
              </option>
            ))}
          </Select>
          {stores.isError ? (
            <p className="text-sm text-destructive">{errorMessage(stores.error, "Failed to load stores")}</p>
          ) : null}
          {stores.data?.length === 0 ? <p className="text-sm text-muted-foreground">No stores yet.</p> : null}
        </div>

        {storeId ? (
          <div aria-live="polite" className="rounded-md border bg-muted/40 p-3 text-sm">
            {overrides.isPending ? (
              <p className="text-muted-foreground">Loading the store's overrides...</p>
            ) : overrides.isError ? (
              <p className="text-destructive">
                {errorMessage(overrides.error, "Failed to load the store's overrides")}
              </p>
            ) : current === undefined ? (
              <p>{`${storeName} uses the global value: ${formatValueInline(category, key, setting.value)}`}</p>
            ) : (
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="min-w-0 break-words">
                  <span className="font-medium">Current override: </span>
                  {formatValueInline(category, key, current)}
                </p>
                <Button
                  variant="outline"
                  size="sm"
                  className="text-destructive"
                  disabled={save.isPending}
                  onClick={() =>
                    send(undefined, { done: "Store override removed", failed: "Failed to remove store override" })
                  }
                >
                  Remove Override
                </Button>
              </div>
            )}
          </div>
        ) : null}

        <ValueEditor draft={draft} editor={editor} problems={problems} onEdit={() => setProblems(NO_PROBLEMS)} />
      </DialogBody>
      <FormMessage message={problems.message} />
      <DialogFooter className={problems.message ? "border-t-0" : undefined}>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={!storeId || save.isPending} aria-busy={save.isPending}>
          Set Override
        </Button>
      </DialogFooter>
    </form>
  );
}
