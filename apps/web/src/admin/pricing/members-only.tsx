import { useId } from "react";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";
import { Badge } from "../../ui/badge.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Label } from "../../ui/label.tsx";

/**
 * A campaign or offer for members of the chain only. Shoppers who are not
 * members see its price as "Medlemspris" without getting it, so the console
 * marks such rules where they are listed and lets admins set it in the dialog.
 */

/** The "Members" mark beside a members-only rule's name in a list. */
export function MembersBadge({ membersOnly }: { membersOnly: boolean }) {
  if (!membersOnly) return null;
  return (
    <Badge variant="secondary" title="Members only: for members of the chain">
      Members
    </Badge>
  );
}

/** The dialog's "Members only" checkbox, its label and hint tied to it, a problem from the server under it. */
export function MembersOnlyField<T extends FieldValues>(props: {
  control: Control<T>;
  name: Path<T>;
  /** What the rule is called in the hint: "campaign price" or "offer". */
  rule: string;
  error: string | undefined;
}) {
  const id = useId();
  const described = [`${id}-hint`, props.error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field }) => (
        <div className="grid gap-1.5 sm:col-span-2">
          <div className="flex items-center gap-2">
            <Checkbox
              id={id}
              ref={field.ref}
              checked={field.value === true}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
              aria-invalid={props.error ? true : undefined}
              aria-describedby={described}
            />
            <Label htmlFor={id}>Members only</Label>
          </div>
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            Only members of the chain get the {props.rule}; other shoppers see it as "Medlemspris".
          </p>
          {props.error ? (
            <p id={`${id}-error`} className="text-sm text-destructive">
              {props.error}
            </p>
          ) : null}
        </div>
      )}
    />
  );
}
