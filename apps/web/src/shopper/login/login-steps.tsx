import clsx from "clsx";
import { Check } from "lucide-react";
import { sv } from "../sv.ts";

export type LoginStep = "bankid" | "face" | "complete";

const order: LoginStep[] = ["bankid", "face", "complete"];

/** The three steps of signing in, the current one marked for screen readers too. */
export function LoginSteps({ current }: { current: LoginStep }) {
  const at = order.indexOf(current);
  return (
    <ol aria-label={sv.login.stepsLabel} className="grid grid-cols-3 gap-2">
      {order.map((step, index) => {
        const done = index < at || current === "complete";
        const active = index === at;
        return (
          <li
            key={step}
            aria-current={active ? "step" : undefined}
            className="flex flex-col items-center gap-1 text-center"
          >
            <span
              aria-hidden="true"
              className={clsx(
                "flex size-9 items-center justify-center rounded-full border-2 text-sm font-bold",
                done && "border-primary bg-primary text-primary-foreground",
                active && !done && "border-primary text-primary",
                !done && !active && "text-muted-foreground",
              )}
            >
              {done ? <Check className="size-5" /> : index + 1}
            </span>
            <span className={clsx("text-sm", active ? "font-semibold" : "text-muted-foreground")}>
              {sv.login.steps[step]}
              {done && <span className="sr-only"> ({sv.login.stepDone})</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
