import type { Store } from "@glide/contracts";
import { useState } from "react";
import { flushSync } from "react-dom";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Tabs, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { type StoreFormValues, toFormValues, toStoreInput } from "./store-form.ts";
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
  const [tab, setTab] = useState("basic");
  const create = useCreateStore();
  const update = useUpdateStore();
  const mutation = store ? update : create;
  const {
    register,
    control,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<StoreFormValues>({ defaultValues: toFormValues(store) });

  const onValid = (values: StoreFormValues) => {
    const input = toStoreInput(values);
    const callbacks = {
      onSuccess: () => {
        toast.success(store ? "Store updated" : "Store created");
        onDone();
      },
      // The dialog stays open with the server's reason, which names the field.
      onError: (error: unknown) => {
        toast.error(errorMessage(error, store ? "Failed to update store" : "Failed to create store"));
      },
    };
    if (store) update.mutate({ id: store.id, input }, callbacks);
    else create.mutate(input, callbacks);
  };

  // The only client-side rule is the required name; show its tab so the message is seen.
  const onInvalid = () => {
    flushSync(() => setTab("basic"));
    setFocus("name");
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, onInvalid)} className="flex min-h-0 flex-1 flex-col">
      <DialogBody>
        {mutation.isError ? (
          <ErrorAlert className="mb-4">
            {errorMessage(mutation.error, store ? "Failed to update store" : "Failed to create store")}
          </ErrorAlert>
        ) : null}
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList>
            <TabsTrigger value="basic">Basic Info</TabsTrigger>
            <TabsTrigger value="location">Location</TabsTrigger>
            <TabsTrigger value="contact">Contact</TabsTrigger>
            <TabsTrigger value="settings">Settings</TabsTrigger>
          </TabsList>
          <StoreFormFields register={register} control={control} errors={errors} />
        </Tabs>
      </DialogBody>
      <DialogFooter>
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
