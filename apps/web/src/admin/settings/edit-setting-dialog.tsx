import type { Setting } from "@glide/contracts";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { editorOf, simplePaths } from "./setting-editors.ts";
import { NO_PROBLEMS, placeProblems, type ValueProblems } from "./setting-errors.ts";
import { SettingTitle } from "./setting-title.tsx";
import { useUpdateSetting } from "./use-settings.ts";
import { useFocusProblem, useValueDraft, ValueEditor } from "./value-editor.tsx";

interface EditSettingDialogProps {
  /** The setting to edit; the dialog is closed while null. */
  setting: Setting | null;
  onOpenChange: (open: boolean) => void;
}

export function EditSettingDialog({ setting, onOpenChange }: EditSettingDialogProps) {
  return (
    <Dialog open={setting !== null} onOpenChange={onOpenChange}>
      <DialogContent
        title="Edit Setting"
        description={setting ? <SettingTitle setting={setting} /> : null}
        className="max-w-2xl"
      >
        {/* Mounted per opening, so each opening starts from the setting's current value. */}
        {setting ? <EditSettingForm setting={setting} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditSettingForm({ setting, onDone }: { setting: Setting; onDone: () => void }) {
  const editor = editorOf(setting.category, setting.key, setting.value);
  const draft = useValueDraft(setting.value, editor !== null);
  const update = useUpdateSetting();
  const [problems, setProblems] = useState<ValueProblems>(NO_PROBLEMS);
  const formRef = useFocusProblem(problems);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblems(NO_PROBLEMS);
    const canPlace = draft.mode === "simple" ? simplePaths(editor, draft.value) : (path: string) => path === "";
    update.mutate(
      { category: setting.category, key: setting.key, value: draft.value },
      {
        onSuccess: () => {
          toast.success("Setting updated successfully");
          onDone();
        },
        // The dialog stays open: the server's reason beside the control it is about, or once above the buttons.
        onError: (error) =>
          setProblems(placeProblems(error, { prefix: "value", canPlace, fallback: "Failed to update setting" })),
      },
    );
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col">
      <DialogBody>
        <ValueEditor draft={draft} editor={editor} problems={problems} onEdit={() => setProblems(NO_PROBLEMS)} />
      </DialogBody>
      <FormMessage message={problems.message} />
      <DialogFooter className={problems.message ? "border-t-0" : undefined}>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={update.isPending} aria-busy={update.isPending}>
          Save Changes
        </Button>
      </DialogFooter>
    </form>
  );
}
