import { type Camera, PTZ_SPEED, type PtzAction } from "@glide/contracts";
import { ArrowDown, ArrowLeft, ArrowRight, ArrowUp, Bookmark, Square, ZoomIn, ZoomOut } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { Slider } from "../../ui/slider.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { usePtzCommand, usePtzPresets } from "./use-cameras.ts";

const PAD: { action: PtzAction; label: string; icon: ReactNode; cell: string }[] = [
  { action: "tilt_up", label: "Tilt up", icon: <ArrowUp aria-hidden="true" />, cell: "col-start-2 row-start-1" },
  { action: "pan_left", label: "Pan left", icon: <ArrowLeft aria-hidden="true" />, cell: "col-start-1 row-start-2" },
  { action: "stop", label: "Stop", icon: <Square aria-hidden="true" />, cell: "col-start-2 row-start-2" },
  { action: "pan_right", label: "Pan right", icon: <ArrowRight aria-hidden="true" />, cell: "col-start-3 row-start-2" },
  { action: "tilt_down", label: "Tilt down", icon: <ArrowDown aria-hidden="true" />, cell: "col-start-2 row-start-3" },
];

/**
 * Pan & Tilt, Speed, Zoom and the saved presets. One command at a time: every
 * button waits while one runs. A camera without PTZ shows them disabled.
 */
export function PtzControls({ camera }: { camera: Camera }) {
  const speedLabelId = useId();
  const [speed, setSpeed] = useState<number>(PTZ_SPEED.default);
  const presets = usePtzPresets(camera.id, camera.has_ptz);
  const command = usePtzCommand(camera.id);
  const disabled = !camera.has_ptz || command.isPending;

  const run = (action: PtzAction, preset?: number) =>
    command.mutate(
      { action, speed, ...(preset === undefined ? {} : { preset }) },
      {
        onSuccess: () => toast.success(`PTZ command executed: ${action}`),
        onError: (error) =>
          toast.error("PTZ command failed", error instanceof ApiError ? { description: error.detail } : {}),
      },
    );

  let presetList: ReactNode;
  if (camera.has_ptz && presets.isPending) presetList = <Spinner className="p-2" label="Loading presets" />;
  else if (!camera.has_ptz || presets.isError || (presets.data ?? []).length === 0)
    presetList = <p className="text-sm text-muted-foreground">No presets configured</p>;
  else
    presetList = (
      <ul className="flex flex-wrap gap-2" aria-label="Saved Presets">
        {(presets.data ?? []).map((preset) => (
          <li key={preset.number}>
            <Button variant="outline" size="sm" disabled={disabled} onClick={() => run("goto_preset", preset.number)}>
              <Bookmark aria-hidden="true" />
              {preset.name || `Preset ${preset.number}`}
            </Button>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1" aria-busy={command.isPending}>
      {camera.has_ptz ? null : (
        <p className="rounded-md border border-dashed px-3 py-2 text-sm text-muted-foreground sm:col-span-2 lg:col-span-1">
          This camera cannot pan, tilt or zoom.
        </p>
      )}
      <section aria-labelledby={`${speedLabelId}-pan`} className="grid content-start gap-3">
        <h3 id={`${speedLabelId}-pan`} className="font-semibold">
          Pan &amp; Tilt
        </h3>
        <div className="grid w-fit grid-cols-3 grid-rows-3 gap-1.5">
          {PAD.map(({ action, label, icon, cell }) => (
            <Button
              key={action}
              variant={action === "stop" ? "secondary" : "outline"}
              size="icon"
              className={cell}
              aria-label={label}
              title={label}
              disabled={disabled}
              onClick={() => run(action)}
            >
              {icon}
            </Button>
          ))}
        </div>
        <div className="grid gap-2">
          <div className="flex items-center justify-between text-sm">
            <span id={speedLabelId} className="font-medium">
              Speed
            </span>
            <span className="tabular-nums text-muted-foreground">{speed}</span>
          </div>
          <Slider
            value={speed}
            onValueChange={setSpeed}
            min={PTZ_SPEED.min}
            max={PTZ_SPEED.max}
            step={1}
            labelledBy={speedLabelId}
            valueText={String(speed)}
            disabled={!camera.has_ptz}
          />
        </div>
      </section>
      <section aria-labelledby={`${speedLabelId}-zoom`} className="grid content-start gap-3">
        <h3 id={`${speedLabelId}-zoom`} className="font-semibold">
          Zoom &amp; Presets
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" disabled={disabled} onClick={() => run("zoom_in")}>
            <ZoomIn aria-hidden="true" />
            Zoom In
          </Button>
          <Button variant="outline" size="sm" disabled={disabled} onClick={() => run("zoom_out")}>
            <ZoomOut aria-hidden="true" />
            Zoom Out
          </Button>
        </div>
        <h4 className="text-sm font-medium">Saved Presets</h4>
        {presetList}
      </section>
    </div>
  );
}
