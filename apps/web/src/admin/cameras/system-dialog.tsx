import type { CameraSystem } from "@glide/contracts";
import { useWatch } from "react-hook-form";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { useFormDialog, useLateDefaults } from "../lib/use-form-dialog.ts";
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
  const { form, tabs, formProps } = useFormDialog({
    defaultValues: toSystemFormValues(system, initialOptions, initialStore),
    fieldOf: systemFieldOf,
    tabs: SYSTEM_TABS,
    save: (values: SystemFormValues, callbacks) =>
      save.mutate({ id: system?.id, input: toSystemInput(values) }, callbacks),
    savedText: () => (system ? "Camera system updated successfully" : "Camera system created successfully"),
    failure: system ? "Failed to update system" : "Failed to create system",
    onSaved,
    onDone,
  });
  const {
    register,
    control,
    setValue,
    getValues,
    reset,
    formState: { errors },
  } = form;
  const chosenStore = useWatch({ control, name: "store_id" });
  // A new system takes the defaults of the store it is for (its overrides), else the global ones.
  const options = useCameraOptions(chosenStore);
  // Runs when the settings arrive or the store changes, for a new system only.
  useLateDefaults(
    reset,
    options,
    () => (system || !options.loaded ? undefined : toSystemFormValues(undefined, options, chosenStore)),
    { keepErrors: true },
  );

  // A brand brings its usual port (brand presets).
  const onBrand = (brand: string) => {
    const port = options.brandPresets[brand as keyof typeof options.brandPresets]?.port;
    if (port) setValue("port", String(port), { shouldDirty: true });
  };

  return (
    <DialogForm {...formProps} submitLabel={system ? "Save Changes" : "Create System"} busy={save.isPending}>
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
    </DialogForm>
  );
}
