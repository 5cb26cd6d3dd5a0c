import type { Camera, CameraSystem } from "@glide/contracts";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { useFormDialog, useLateDefaults } from "../lib/use-form-dialog.ts";
import {
  CAMERA_TABS,
  type CameraFormValues,
  cameraFieldOf,
  type NewCamera,
  nextChannel,
  storeOfCamera,
  toCameraFormValues,
  toCameraInput,
} from "./camera-form.ts";
import { CameraFormFields } from "./camera-form-fields.tsx";
import { type Option, useCameraOptions } from "./camera-options.ts";
import { LivePreviewDialog } from "./live-preview-dialog.tsx";
import { useSaveCamera } from "./use-cameras.ts";

export type CameraEditor =
  | { mode: "closed" }
  | { mode: "create"; system?: CameraSystem }
  | { mode: "edit"; camera: Camera };

interface CameraDialogProps {
  editor: CameraEditor;
  onClose: () => void;
  systems: readonly CameraSystem[];
  cameras: readonly Camera[];
  stores: Option[];
  /** The camera as saved: the page watches for its probe. */
  onSaved: (camera: Camera) => void;
}

export function CameraDialog({ editor, onClose, systems, cameras, stores, onSaved }: CameraDialogProps) {
  const camera = editor.mode === "edit" ? editor.camera : undefined;
  let start: NewCamera | undefined;
  if (editor.mode === "create") {
    start = {
      system: editor.system,
      channel: nextChannel(cameras, editor.system?.id),
      // An admin with one store has it chosen for them.
      storeId: stores.length === 1 ? (stores[0]?.value ?? "") : "",
    };
  }
  return (
    <Dialog open={editor.mode !== "closed"} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={camera ? "Edit Camera" : "Add Camera"} className="max-w-2xl">
        {/* Mounted per opening, so each opening starts from the camera's current values. */}
        {editor.mode === "closed" ? null : (
          <CameraForm
            camera={camera}
            start={start}
            systems={systems}
            stores={stores}
            onSaved={onSaved}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

interface CameraFormProps {
  camera?: Camera;
  start?: NewCamera;
  systems: readonly CameraSystem[];
  stores: Option[];
  onSaved: (camera: Camera) => void;
  onDone: () => void;
}

function CameraForm({ camera, start, systems, stores, onSaved, onDone }: CameraFormProps) {
  const save = useSaveCamera();
  const [previewOpen, setPreviewOpen] = useState(false);
  const initialOptions = useCameraOptions(camera?.store_id ?? start?.system?.store_id ?? start?.storeId);
  const { form, tabs, formProps } = useFormDialog({
    defaultValues: toCameraFormValues(camera, initialOptions, start),
    fieldOf: cameraFieldOf,
    tabs: CAMERA_TABS,
    save: (values: CameraFormValues, callbacks) =>
      save.mutate({ id: camera?.id, input: toCameraInput(values, systems) }, callbacks),
    savedText: () => (camera ? "Camera updated successfully" : "Camera created successfully"),
    failure: camera ? "Failed to update camera" : "Failed to create camera",
    onSaved,
    onDone,
  });
  const {
    register,
    control,
    setValue,
    reset,
    formState: { errors },
  } = form;
  const [systemId, storeId] = useWatch({ control, name: ["camera_system_id", "store_id"] });
  // A new camera takes the defaults of its store (its overrides), else the global ones.
  const options = useCameraOptions(storeOfCamera({ camera_system_id: systemId, store_id: storeId }, systems));
  // When its store's settings arrive, for a new camera only.
  useLateDefaults(
    reset,
    options,
    () => (camera || !options.loaded ? undefined : toCameraFormValues(undefined, options, start)),
    { keepErrors: true },
  );

  const onSystem = (id: string) => {
    const system = systems.find((candidate) => candidate.id === id);
    if (system?.store_id) setValue("store_id", system.store_id, { shouldDirty: true });
  };

  return (
    <>
      <DialogForm {...formProps} submitLabel={camera ? "Save Changes" : "Create Camera"} busy={save.isPending}>
        <Tabs value={tabs.tab} onValueChange={tabs.setTab}>
          <TabsList>
            <TabsTrigger value="basic" invalid={tabs.invalid.has("basic")}>
              Basic Info
            </TabsTrigger>
            <TabsTrigger value="stream" invalid={tabs.invalid.has("stream")}>
              Stream
            </TabsTrigger>
            <TabsTrigger value="preview">Preview</TabsTrigger>
            <TabsTrigger value="settings" invalid={tabs.invalid.has("settings")}>
              Settings
            </TabsTrigger>
          </TabsList>
          <CameraFormFields
            register={register}
            control={control}
            errors={errors}
            options={options}
            systems={systems}
            stores={stores}
            camera={camera}
            onShowPreview={() => setPreviewOpen(true)}
            onSystem={onSystem}
          />
        </Tabs>
      </DialogForm>
      {/* Over the camera dialog, which is there again when the preview closes. */}
      {camera ? <LivePreviewDialog camera={previewOpen ? camera : null} onClose={() => setPreviewOpen(false)} /> : null}
    </>
  );
}
