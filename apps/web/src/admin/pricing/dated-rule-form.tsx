import type { ReactNode } from "react";
import { type DefaultValues, type UseFormReturn, useWatch } from "react-hook-form";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Input } from "../../ui/input.tsx";
import { Select } from "../../ui/select.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { useStores } from "../lib/store-list.ts";
import { type FormDialogOptions, type SaveCallbacks, useFormDialog, useLateDefaults } from "../lib/use-form-dialog.ts";

/*
 * What the campaign and offer dialogs share: the frame, the save flow with its
 * words, the store a new rule starts in, and the Store, From and To fields.
 * Each dialog brings its own fields around them.
 */

/** The inputs every dated rule's dialog holds. */
export interface DatedRuleFormValues {
  /** A store's id, or "" for every store. */
  store_id: string;
  /** YYYY-MM-DD, as a date input gives them. */
  starts_on: string;
  ends_on: string;
  /** For members of the chain only. */
  members_only: boolean;
}

/** What the tab gives its dialog: open or not, and the rule to edit (a new one when absent). */
export interface DatedRuleDialogProps<R> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  rule: R | undefined;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A dated rule's create or edit dialog, its form mounted per opening so each starts from the rule's current values. */
export function DatedRuleDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The rule by name: "campaign". */
  noun: string;
  editing: boolean;
  description: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent
        title={props.editing ? `Edit ${props.noun}` : `New ${props.noun}`}
        description={props.description}
        className={props.className}
      >
        {props.children}
      </DialogContent>
    </Dialog>
  );
}

/** A mutation as the form sends with it. */
interface Send<Variables, Saved> {
  mutate: (variables: Variables, callbacks: SaveCallbacks<Saved>) => void;
  isPending: boolean;
}

interface DatedRuleFormOptions<R, V extends DatedRuleFormValues, I> {
  /** The rule to edit; a new one when absent. */
  rule: R | undefined;
  noun: string;
  /** The form's values for the rule, or a new one's in `store`. */
  valuesOf: (rule: R | undefined, store: string) => V;
  fieldOf: FormDialogOptions<V, R>["fieldOf"];
  first: FormDialogOptions<V, R>["first"];
  inputOf: (values: V) => I;
  create: Send<I, R>;
  update: Send<{ id: string; input: I }, R>;
  onDone: () => void;
}

/**
 * A dated rule's form: useFormDialog with the rule's words, and the stores the
 * admin may choose from. A platform admin starts a new rule in every store; a
 * store admin in their first, also when their stores answer after the dialog opened.
 */
export function useDatedRuleForm<R extends { id: string }, V extends DatedRuleFormValues, I>(
  options: DatedRuleFormOptions<R, V, I>,
) {
  const { rule, noun, create, update } = options;
  const platformAdmin = useIsPlatformAdmin();
  // The server lists only the stores the admin may see: a store admin's own.
  const stores = useStores("").data ?? [];
  const { form, formProps } = useFormDialog({
    defaultValues: options.valuesOf(rule, platformAdmin ? "" : (stores[0]?.id ?? "")) as DefaultValues<V>,
    fieldOf: options.fieldOf,
    first: options.first,
    save: (values: V, callbacks: SaveCallbacks<R>) => {
      const input = options.inputOf(values);
      if (rule) update.mutate({ id: rule.id, input }, callbacks);
      else create.mutate(input, callbacks);
    },
    savedText: () => (rule ? `${capitalized(noun)} updated` : `${capitalized(noun)} added`),
    failure: rule ? `Failed to update the ${noun}` : `Failed to add the ${noun}`,
    onDone: options.onDone,
  });
  const firstStore = stores[0]?.id;
  useLateDefaults(form.reset, firstStore, () =>
    rule || platformAdmin || !firstStore ? undefined : { ...form.getValues(), store_id: firstStore },
  );
  return {
    form,
    // The same form for the shared fields: V holds their inputs, though TypeScript cannot see it through a generic.
    shared: form as unknown as UseFormReturn<DatedRuleFormValues>,
    stores,
    platformAdmin,
    formProps: {
      ...formProps,
      submitLabel: rule ? "Save Changes" : `Add ${noun}`,
      busy: (rule ? update : create).isPending,
    },
  };
}

/** The Store field: every store (platform admins only) or one of the admin's. */
export function RuleStoreField({ form, stores, platformAdmin }: StoreFieldProps) {
  return (
    <Field label="Store" error={form.formState.errors.store_id?.message}>
      {(id, aria) => (
        <Select id={id} {...aria} {...form.register("store_id")}>
          {platformAdmin ? <option value="">All stores</option> : null}
          {stores.map((store) => (
            <option key={store.id} value={store.id}>
              {store.name}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

interface StoreFieldProps {
  form: UseFormReturn<DatedRuleFormValues>;
  stores: readonly { id: string; name: string }[];
  platformAdmin: boolean;
}

/** The From and To fields, both required, the rule named in their problems. */
export function RuleDaysFields({ form, noun }: { form: UseFormReturn<DatedRuleFormValues>; noun: string }) {
  const { register, control, formState } = form;
  // The last day's picker starts at the first day; a day typed before it is still sent, and the server says why not.
  const startsOn = useWatch({ control, name: "starts_on" });
  return (
    <>
      <Field label="From" error={formState.errors.starts_on?.message}>
        {(id, aria) => (
          <Input
            id={id}
            {...aria}
            type="date"
            aria-required="true"
            {...register("starts_on", { required: `Choose the first day of the ${noun}` })}
          />
        )}
      </Field>
      <Field label="To" error={formState.errors.ends_on?.message}>
        {(id, aria) => (
          <Input
            id={id}
            {...aria}
            type="date"
            aria-required="true"
            min={startsOn || undefined}
            {...register("ends_on", { required: `Choose the last day of the ${noun}` })}
          />
        )}
      </Field>
    </>
  );
}
