import { CAMPAIGN_STATUSES } from "@glide/contracts";
import type { UseMutationResult } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { type ComponentType, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button } from "../../ui/button.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { useAdmin } from "../auth/admin-context.ts";
import { useDateFormat } from "../settings/use-date-format.ts";
import { ClearFilters, FilterSelect, MatchCount, SearchField, StoreFilter } from "../shell/filter-controls.tsx";
import { PagedList } from "../shell/paged-list.tsx";
import { mayChange, RULE_STATUS, storesOf } from "./dated-rule.ts";
import type { DatedRuleDialogProps } from "./dated-rule-form.tsx";
import type { DatedRuleListProps, ListedRule } from "./dated-rule-list.tsx";
import { DATED_RULE_PAGE_SIZES, type useDatedRuleParams } from "./use-dated-rule-params.ts";

type EditorState<R> = { mode: "closed" } | { mode: "create" } | { mode: "edit"; rule: R };

/** One page of a tab's rules as its list hook gives it, with the number of all matches. */
type RulePage<R> = Parameters<typeof PagedList<R>>[0]["query"];

interface DatedRulesViewProps<R> {
  /** The rule by name in the tab's words: "campaign" and "campaigns". */
  noun: { one: string; many: string };
  /** The search box's placeholder: what the search looks in. */
  searchPlaceholder: string;
  params: ReturnType<typeof useDatedRuleParams>;
  list: RulePage<R>;
  remove: Pick<UseMutationResult<unknown, Error, string>, "mutate">;
  List: ComponentType<DatedRuleListProps<R>>;
  Dialog: ComponentType<DatedRuleDialogProps<R>>;
  /** What the delete confirmation names before the stores and days, e.g. "Kaffe at 19,90 kr". */
  deleting: (rule: R) => string;
  /** Said after the stores and days in the delete confirmation, if anything. */
  deleteNote?: string;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A tab of rules kept by the day (Campaigns, Offers): search, store and
 * status filters, the page with its paging, New, Edit and Delete. Platform
 * admins keep every rule, store admins their stores' (and read the
 * chain-wide ones). Filters, search and page live in the URL (`params`).
 */
export function DatedRulesView<R extends ListedRule>(props: DatedRulesViewProps<R>) {
  const { noun, params, list, remove, List, Dialog } = props;
  const admin = useAdmin();
  const { isMobile } = useSidebar();
  const dates = useDateFormat();
  const [editor, setEditor] = useState<EditorState<R>>({ mode: "closed" });
  const [toDelete, setToDelete] = useState<R | null>(null);
  const canAdd = admin.role === "platform_admin" || admin.store_ids.length > 0;
  const canChange = (rule: R) => mayChange(admin, rule);

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: () => toast.success(`${capitalized(noun.one)} deleted`),
      onError: (error) => toast.error(errorMessage(error, `Failed to delete the ${noun.one}`)),
    });
  };
  const filtered = Boolean(params.search || params.storeId || params.status);
  const describe = (rule: R) =>
    `${props.deleting(rule)} in ${storesOf(rule)}, ${dates.day(rule.starts_on)} to ${dates.day(rule.ends_on)}, will be removed.${props.deleteNote ? ` ${props.deleteNote}` : ""}`;

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end gap-2">
        <SearchField
          label={`Search ${noun.many}`}
          placeholder={props.searchPlaceholder}
          value={params.search}
          onChange={params.setSearch}
        />
        <StoreFilter value={params.storeId} onChange={params.setStoreId} />
        <FilterSelect
          aria-label="Status"
          className="sm:w-40"
          value={params.status}
          onChange={(event) => params.setStatus(event.target.value)}
        >
          <option value="">All statuses</option>
          {CAMPAIGN_STATUSES.map((status) => (
            <option key={status} value={status}>
              {RULE_STATUS[status].label}
            </option>
          ))}
        </FilterSelect>
        <ClearFilters active={filtered} onClear={params.clearFilters} />
        <MatchCount total={list.data?.total} one={noun.one} many={noun.many} />
        {canAdd ? (
          <Button onClick={() => setEditor({ mode: "create" })}>
            <Plus aria-hidden="true" />
            New {noun.one}
          </Button>
        ) : null}
      </div>

      <PagedList
        query={list}
        paging={params}
        pageSizes={DATED_RULE_PAGE_SIZES}
        loadingLabel={`Loading ${noun.many}`}
        errorLabel={`Failed to load the ${noun.many}`}
      >
        {(rules, busy) => (
          <List
            rules={rules}
            phone={isMobile}
            busy={busy}
            empty={filtered ? `No ${noun.many} match these filters` : `No ${noun.many} yet`}
            canChange={canChange}
            showActions={canAdd}
            onEdit={(rule) => setEditor({ mode: "edit", rule })}
            onDelete={setToDelete}
          />
        )}
      </PagedList>

      <Dialog
        open={editor.mode !== "closed"}
        onOpenChange={(open) => !open && setEditor({ mode: "closed" })}
        rule={editor.mode === "edit" ? editor.rule : undefined}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={`Delete this ${noun.one}?`}
        description={toDelete ? describe(toDelete) : undefined}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
