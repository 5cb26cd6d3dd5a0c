import { STORE_DEFAULTS, type Store } from "@glide/contracts";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { DialogForm } from "../lib/dialog-form.tsx";
import { useFormDialog, useLateDefaults } from "../lib/use-form-dialog.ts";
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

/**
 * A new store's country, time zone, language, currency and VAT: the global
 * settings, else the built-in defaults. Its VAT is the standard rate of its
 * country (product/vat_rates_by_country).
 */
function newStoreDefaults(effective: Effective): StoreDraftDefaults {
  const country = effectiveValue(effective, "store", "default_country") ?? STORE_DEFAULTS.country;
  return {
    country,
    timezone: effectiveValue(effective, "store", "default_timezone") ?? STORE_DEFAULTS.timezone,
    language: effectiveValue(effective, "store", "default_locale") ?? STORE_DEFAULTS.language,
    currency: effectiveValue(effective, "product", "default_currency") ?? STORE_DEFAULTS.currency,
    vat_rate: effectiveValue(effective, "product", "vat_rates_by_country")?.[country] ?? STORE_DEFAULTS.vat_rate,
  };
}

function StoreForm({ store, onDone }: { store?: Store; onDone: () => void }) {
  const effective = useEffectiveSettings();
  const create = useCreateStore();
  const update = useUpdateStore();
  const mutation = store ? update : create;
  const { form, tabs, formProps } = useFormDialog({
    defaultValues: toFormValues(store, newStoreDefaults(effective.data)),
    fieldOf: storeFieldOf,
    tabs: STORE_TABS,
    save: (values: StoreFormValues, callbacks) => {
      const input = toStoreInput(values);
      if (store) update.mutate({ id: store.id, input }, callbacks);
      else create.mutate(input, callbacks);
    },
    savedText: () => (store ? "Store updated" : "Store created"),
    failure: store ? "Failed to update store" : "Failed to create store",
    onDone,
  });
  const {
    register,
    control,
    setValue,
    reset,
    formState: { errors },
  } = form;
  // When the settings arrive, for a new store only.
  useLateDefaults(reset, effective.data, () =>
    store || !effective.data ? undefined : toFormValues(undefined, newStoreDefaults(effective.data)),
  );

  return (
    <DialogForm {...formProps} submitLabel={store ? "Save Changes" : "Create Store"} busy={mutation.isPending}>
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
    </DialogForm>
  );
}
