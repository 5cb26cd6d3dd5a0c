import type { Store } from "@glide/contracts";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { useFormTabs, useServerErrors } from "../../lib/form-errors.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, FormMessage } from "../../ui/dialog.tsx";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { STORE_TABS, type StoreFormValues, storeFieldOf, toFormValues, toStoreInput } from "./store-form.ts";
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

function StoreForm({ store, onDone }: { store?: Store; onDone: () => void }) {
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
    formState: { errors },
  } = useForm<StoreFormValues>({ defaultValues: toFormValues(store) });
  const tabs = useFormTabs(STORE_TABS, errors);
  const server = useServerErrors({ setError, setFocus, fieldOf: storeFieldOf, first: tabs.first, reveal: tabs.reveal });

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
