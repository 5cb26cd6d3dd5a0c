import type { CameraSystem, ConnectionTest as TestResult } from "@glide/contracts";
import clsx from "clsx";
import { CircleCheck, CircleX, PlugZap } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { type SystemFormValues, toConnectionTestInput } from "./system-form.ts";
import { useTestConnection } from "./use-cameras.ts";

type Result = { ok: true; test: TestResult } | { ok: false; test: TestResult | null; message: string };

function deviceText(device: TestResult["device"]): string | null {
  if (!device) return null;
  const parts = [device.manufacturer, device.model, device.firmware && `firmware ${device.firmware}`];
  const text = parts.filter(Boolean).join(" ");
  return text || null;
}

/**
 * Test Connection (edit only): tries the connection settings as typed in the
 * dialog, before they are saved; an empty password is the saved one while the
 * address and user name are unchanged. The result stays under the button,
 * green on success and red otherwise.
 */
export function ConnectionTest({ system, values }: { system: CameraSystem; values: () => SystemFormValues }) {
  const test = useTestConnection();
  const [result, setResult] = useState<Result | null>(null);

  const run = () => {
    setResult(null);
    test.mutate(toConnectionTestInput(values(), system.id), {
      onSuccess: (answer) => {
        if (answer.status === "success") {
          toast.success("Connection test successful");
          setResult({ ok: true, test: answer });
        } else {
          toast.warning("Connection test failed", { description: answer.message });
          setResult({ ok: false, test: answer, message: answer.message });
        }
      },
      onError: (error) => {
        const message = errorMessage(error, "Failed to test connection");
        toast.error(
          "Failed to test connection",
          message === "Failed to test connection" ? {} : { description: message },
        );
        setResult({ ok: false, test: null, message });
      },
    });
  };

  const device = result?.test ? deviceText(result.test.device) : null;
  return (
    <div className="grid gap-2 sm:col-span-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={run} disabled={test.isPending} aria-busy={test.isPending}>
          <PlugZap aria-hidden="true" />
          {test.isPending ? "Testing..." : "Test Connection"}
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {result ? (
          <div
            data-result={result.ok ? "success" : "failed"}
            className={clsx(
              "flex items-start gap-2 rounded-md border px-3 py-2 text-sm",
              result.ok ? "border-success/50 bg-success/10" : "border-destructive/50 bg-destructive-muted",
            )}
          >
            {result.ok ? (
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
            ) : (
              <CircleX aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
            )}
            <div className="grid gap-0.5">
              <p className="font-medium">{result.ok ? result.test.message : result.message}</p>
              {result.test ? (
                <p className="text-xs text-muted-foreground">
                  {result.ok ? "Connected" : `Failed at: ${result.test.step}`} · {Math.round(result.test.duration_ms)}{" "}
                  ms
                  {device ? ` · ${device}` : ""}
                </p>
              ) : null}
            </div>
          </div>
        ) : null}
      </div>
    </div>
  );
}
