import { STORE_DEFAULTS, type Store } from "@glide/contracts";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { useFormTabs, useServerErrors } from "../../lib/form-errors.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { StoreOverrideList } from "../settings/store-override-list.tsx";
import { effectiveValue, useEffectiveSettings } from "../settings/use-settings.ts";
import {
  STORE_TABS,
  type StoreDraftDefaults,
  type StoreFormValues,
  storeFieldOf,
  toFormValues,
  toStoreInput,
} from "./store-form.ts";
import { StoreFormFields } from "./store-form-fields.tsx";
import { useCreateStore, useUpdateStore } from "./use-stores.ts";

interface StoreDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The store to edit; create a new one when absent. */
  store?: Store;
}

export function StoreDialog({ open, onOpenChange, store }: StoreDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={store ? "Edit Store" : "Create Store"} className="max-w-2xl">
        {/* Mounted per opening, so each opening starts from the store's current values. */}
        <StoreForm store={store} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

type Effective = ReturnType<typeof useEffectiveSettings>["data"];

/** A new store's country, time zone, language, currency and VAT: the global settings, else the built-in defaults. */
function newStoreDefaults(effective: Effective): StoreDraftDefaults {
  return {
    country: effectiveValue(effective, "store", "default_country") ?? STORE_DEFAULTS.country,
    timezone: effectiveValue(effective, "store", "default_timezone") ?? STORE_DEFAULTS.timezone,
    language: effectiveValue(effective, "store", "default_locale") ?? STORE_DEFAULTS.language,
    currency: effectiveValue(effective, "product", "default_currency") ?? STORE_DEFAULTS.currency,
    vat_rate: effectiveValue(effective, "product", "default_vat_rate") ?? STORE_DEFAULTS.vat_rate,
  };
}

function StoreForm({ store, onDone }: { store?: Store; onDone: () => void }) {
  const effective = useEffectiveSettings();
  const create = useCreateStore();
  const update = useUpdateStore();
  const mutation = store ? update : create;
  const {
    register,
    control,
    handleSubmit,
    setFocus,
    setError,
    setValue,
    reset,
    formState: { errors },
  } = useForm<StoreFormValues>({ defaultValues: toFormValues(store, newStoreDefaults(effective.data)) });
  const tabs = useFormTabs(STORE_TABS, errors);
  const server = useServerErrors({ setError, setFocus, fieldOf: storeFieldOf, first: tabs.first, reveal: tabs.reveal });

  // Settings that answer after the form opened fill the fields the person has not touched yet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the settings arrive, for a new store only.
  useEffect(() => {
    if (store || !effective.data) return;
    reset(toFormValues(undefined, newStoreDefaults(effective.data)), { keepDirtyValues: true });
  }, [effective.data]);

  const onValid = (values: StoreFormValues) => {
    server.clear();
    const input = toStoreInput(values);
    const callbacks = {
      onSuccess: () => {
        toast.success(store ? "Store updated" : "Store created");
        onDone();
      },
      // The dialog stays open: each problem beside its field, anything else once above the buttons.
      onError: (error: unknown) => server.show(error, store ? "Failed to update store" : "Failed to create store"),
    };
    if (store) update.mutate({ id: store.id, input }, callbacks);
    else create.mutate(input, callbacks);
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, server.onInvalid)} className="flex min-h-0 flex-1 flex-col">
      <DialogBody>
        <Tabs value={tabs.tab} onValueChange={tabs.setTab}>
          <TabsList>
            <TabsTrigger value="basic" invalid={tabs.invalid.has("basic")}>
              Basic Info
            </TabsTrigger>
            <TabsTrigger value="location" invalid={tabs.invalid.has("location")}>
              Location
            </TabsTrigger>
            <TabsTrigger value="contact" invalid={tabs.invalid.has("contact")}>
              Contact
            </TabsTrigger>
            <TabsTrigger value="settings" invalid={tabs.invalid.has("settings")}>
              Settings
            </TabsTrigger>
          </TabsList>
          <StoreFormFields register={register} control={control} errors={errors} setValue={setValue} />
          {store && tabs.tab === "settings" ? <StoreOverrideList custom={store.custom_settings} /> : null}
        </Tabs>
      </DialogBody>
      <FormMessage message={server.message} />
      <DialogFooter className={server.message ? "border-t-0" : undefined}>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={mutation.isPending} aria-busy={mutation.isPending}>
          {store ? "Save Changes" : "Create Store"}
        </Button>
      </DialogFooter>
    </form>
  );
}
