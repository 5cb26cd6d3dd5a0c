import { CAMERA_LIMITS, type Camera, type CameraSystem } from "@glide/contracts";
import { Video } from "lucide-react";
import type { Control, FieldErrors, UseFormRegister } from "react-hook-form";
import { useWatch } from "react-hook-form";
import { Button } from "../../ui/button.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { TabsContent } from "../../ui/tabs.tsx";
import { type CameraFormValues, STANDALONE, streamPlaceholder } from "./camera-form.ts";
import type { CameraOptions, Option } from "./camera-options.ts";
import { SelectField, SwitchField } from "./form-controls.tsx";

interface CameraFormFieldsProps {
  register: UseFormRegister<CameraFormValues>;
  control: Control<CameraFormValues>;
  errors: FieldErrors<CameraFormValues>;
  options: CameraOptions;
  systems: readonly CameraSystem[];
  stores: Option[];
  /** The camera being edited; a new one has no preview yet. */
  camera?: Camera;
  onShowPreview: () => void;
  /** A chosen system brings its store. */
  onSystem: (systemId: string) => void;
}

export function CameraFormFields(props: CameraFormFieldsProps) {
  const { register, control, errors, options, systems, stores, camera, onShowPreview, onSystem } = props;
  const [systemId, channel] = useWatch({ control, name: ["camera_system_id", "camera_index"] });
  const system = systems.find((candidate) => candidate.id === systemId);
  // A camera of a system is in the system's store; only a standalone camera chooses one.
  const storeFollowsSystem = Boolean(system?.store_id);
  const storeName = (id: string | null) => stores.find((store) => store.value === id)?.label;
  const systemOptions: Option[] = [
    { value: STANDALONE, label: "None (standalone camera)" },
    ...systems.map((candidate) => {
      const where = storeName(candidate.store_id);
      return { value: candidate.id, label: where ? `${candidate.name} (${where})` : candidate.name };
    }),
  ];
  const { min, max } = options.fpsRange;

  return (
    <>
      <TabsContent value="basic" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Camera Name *" error={errors.name?.message} className="sm:col-span-2">
          {(id, aria) => (
            <Input
              id={id}
              aria-required="true"
              autoComplete="off"
              maxLength={CAMERA_LIMITS.name}
              {...aria}
              {...register("name", { validate: (v) => v.trim() !== "" || "Camera name is required" })}
            />
          )}
        </Field>
        <Field label="Channel / Index" error={errors.camera_index?.message} hint="The camera's channel on its system">
          {(id, aria) => (
            <Input
              id={id}
              type="number"
              min={1}
              max={CAMERA_LIMITS.camera_index}
              step={1}
              inputMode="numeric"
              {...aria}
              {...register("camera_index")}
            />
          )}
        </Field>
        <SelectField
          label="Location Zone"
          name="location_zone"
          control={control}
          error={errors.location_zone?.message}
          options={options.zones}
        />
      </TabsContent>

      <TabsContent value="stream" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          label="RTSP Stream URL"
          error={errors.stream_url?.message}
          hint={
            system
              ? "A path on the system, such as the one shown; no user name or password."
              : "rtsp://host:port/path, without user name or password."
          }
          className="sm:col-span-2"
        >
          {(id, aria) => (
            <Input
              id={id}
              autoComplete="off"
              spellCheck={false}
              inputMode="url"
              maxLength={CAMERA_LIMITS.stream_url}
              placeholder={streamPlaceholder(system, options.brandPresets, channel)}
              {...aria}
              {...register("stream_url")}
            />
          )}
        </Field>
        <SelectField
          label="Resolution"
          name="resolution"
          control={control}
          error={errors.resolution?.message}
          options={options.resolutions}
        />
        <Field label="FPS" error={errors.fps?.message} hint={`${min} to ${max} frames per second`}>
          {(id, aria) => (
            <Input
              id={id}
              type="number"
              min={min}
              max={max}
              step={1}
              inputMode="numeric"
              {...aria}
              {...register("fps")}
            />
          )}
        </Field>
      </TabsContent>

      <TabsContent value="preview" className="grid gap-3">
        {camera ? (
          <>
            <p className="text-sm text-muted-foreground">
              The stream's address, a picture from the camera and its pan, tilt and zoom controls.
            </p>
            <div>
              <Button variant="outline" onClick={onShowPreview}>
                <Video aria-hidden="true" />
                Show Live Preview
              </Button>
            </div>
          </>
        ) : (
          <p className="rounded-md border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            Preview will be available after creating the camera
          </p>
        )}
      </TabsContent>

      <TabsContent value="settings" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          label="Camera System"
          name="camera_system_id"
          control={control}
          error={errors.camera_system_id?.message}
          options={systemOptions}
          onPicked={onSystem}
          className="sm:col-span-2"
        />
        <SelectField
          label="Store"
          name="store_id"
          control={control}
          error={errors.store_id?.message}
          options={stores}
          placeholder="Select a store"
          required={!storeFollowsSystem}
          disabled={storeFollowsSystem}
          hint={
            storeFollowsSystem ? "A camera of a system is in the system's store" : "Required for a standalone camera"
          }
          className="sm:col-span-2"
        />
        <SwitchField label="Active" name="is_active" control={control} />
        <SwitchField label="AI Enabled" name="is_ai_enabled" control={control} />
      </TabsContent>
    </>
  );
}
