import type { CameraSystem } from "@glide/contracts";
import { useEffect } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { useFormTabs, useServerErrors } from "../../lib/form-errors.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { type Option, useCameraOptions } from "./camera-options.ts";
import { SYSTEM_TABS, type SystemFormValues, systemFieldOf, toSystemFormValues, toSystemInput } from "./system-form.ts";
import { SystemFormFields } from "./system-form-fields.tsx";
import { useSaveSystem } from "./use-cameras.ts";

export type SystemEditor =
  | { mode: "closed" }
  | { mode: "create"; storeId?: string }
  | { mode: "edit"; system: CameraSystem };

interface SystemDialogProps {
  editor: SystemEditor;
  onClose: () => void;
  /** The stores the admin manages. */
  stores: Option[];
  /** The system as saved: the page watches for its probe. */
  onSaved: (system: CameraSystem) => void;
}

export function SystemDialog({ editor, onClose, stores, onSaved }: SystemDialogProps) {
  const system = editor.mode === "edit" ? editor.system : undefined;
  return (
    <Dialog open={editor.mode !== "closed"} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={system ? "Edit Camera System" : "Add Camera System"} className="max-w-2xl">
        {/* Mounted per opening, so each opening starts from the system's current values. */}
        {editor.mode === "closed" ? null : (
          <SystemForm
            system={system}
            storeId={editor.mode === "create" ? editor.storeId : undefined}
            stores={stores}
            onSaved={onSaved}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

interface SystemFormProps {
  system?: CameraSystem;
  /** A new system's store, when added from a store's group. */
  storeId?: string;
  stores: Option[];
  onSaved: (system: CameraSystem) => void;
  onDone: () => void;
}

function SystemForm({ system, storeId, stores, onSaved, onDone }: SystemFormProps) {
  const save = useSaveSystem();
  // An admin with one store has it chosen for them.
  const initialStore = storeId ?? (stores.length === 1 ? (stores[0]?.value ?? "") : "");
  const initialOptions = useCameraOptions(system?.store_id ?? initialStore);
  const {
    register,
    control,
    handleSubmit,
    setFocus,
    setError,
    setValue,
    getValues,
    reset,
    formState: { errors },
  } = useForm<SystemFormValues>({ defaultValues: toSystemFormValues(system, initialOptions, initialStore) });
  const chosenStore = useWatch({ control, name: "store_id" });
  // A new system takes the defaults of the store it is for (its overrides), else the global ones.
  const options = useCameraOptions(chosenStore);
  const tabs = useFormTabs(SYSTEM_TABS, errors);
  const server = useServerErrors({
    setError,
    setFocus,
    fieldOf: systemFieldOf,
    first: tabs.first,
    reveal: tabs.reveal,
  });

  // Defaults that answer after the form opened fill the fields the person has not touched yet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the settings arrive or the store changes, for a new system only.
  useEffect(() => {
    if (system || !options.loaded) return;
    reset(toSystemFormValues(undefined, options, chosenStore), { keepDirtyValues: true, keepErrors: true });
  }, [options]);

  // A brand brings its usual port (brand presets).
  const onBrand = (brand: string) => {
    const port = options.brandPresets[brand as keyof typeof options.brandPresets]?.port;
    if (port) setValue("port", String(port), { shouldDirty: true });
  };

  const onValid = (values: SystemFormValues) => {
    server.clear();
    const failure = system ? "Failed to update system" : "Failed to create system";
    save.mutate(
      { id: system?.id, input: toSystemInput(values) },
      {
        onSuccess: (saved) => {
          toast.success(system ? "Camera system updated successfully" : "Camera system created successfully");
          onSaved(saved);
          onDone();
        },
        // The dialog stays open: each problem beside its field, anything else once above the buttons.
        onError: (error) => server.show(error, failure),
      },
    );
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, server.onInvalid)} className="flex min-h-0 flex-1 flex-col">
      <DialogBody>
        <Tabs value={tabs.tab} onValueChange={tabs.setTab}>
          <TabsList>
            <TabsTrigger value="basic" invalid={tabs.invalid.has("basic")}>
              Basic Info
            </TabsTrigger>
            <TabsTrigger value="connection" invalid={tabs.invalid.has("connection")}>
              Connection
            </TabsTrigger>
            <TabsTrigger value="store" invalid={tabs.invalid.has("store")}>
              Store
            </TabsTrigger>
            <TabsTrigger value="settings" invalid={tabs.invalid.has("settings")}>
              Settings
            </TabsTrigger>
          </TabsList>
          <SystemFormFields
            register={register}
            control={control}
            errors={errors}
            options={options}
            stores={stores}
            system={system}
            values={getValues}
            onBrand={onBrand}
          />
        </Tabs>
      </DialogBody>
      <FormMessage message={server.message} />
      <DialogFooter className={server.message ? "border-t-0" : undefined}>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
          {system ? "Save Changes" : "Create System"}
        </Button>
      </DialogFooter>
    </form>
  );
}
