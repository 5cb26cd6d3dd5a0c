import type { SessionDetail } from "@glide/contracts";
import { useDateFormat } from "../settings/use-date-format.ts";
import { describeEvent, SOURCE_LABELS } from "./session-format.ts";

/** What happened in the visit, oldest first: the time, what, and who or what did it. */
export function SessionTimeline({ events }: { events: SessionDetail["timeline"] }) {
  const dates = useDateFormat();
  return (
    <section aria-labelledby="session-timeline-heading" className="grid gap-2">
      <h3 id="session-timeline-heading" className="font-semibold">
        Timeline
      </h3>
      {events.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nothing has happened in this visit yet.</p>
      ) : (
        <ol aria-label="Timeline" className="grid gap-1 border-l pl-4 text-sm">
          {events.map((event) => (
            <li key={event.id} data-kind={event.kind} className="grid grid-cols-[auto_1fr_auto] items-baseline gap-3">
              <time dateTime={event.at} className="text-muted-foreground tabular-nums">
                {/* The day is the visit's own; seconds, because a visit's events come seconds apart. */}
                {dates.time(event.at, { seconds: true })}
              </time>
              <span className="min-w-0 break-words">{describeEvent(event)}</span>
              <span className="text-right text-xs text-muted-foreground">
                {SOURCE_LABELS[event.source]}
                {event.staff_email ? ` · ${event.staff_email}` : ""}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
