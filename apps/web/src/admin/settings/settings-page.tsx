import { SETTING_CATEGORIES, type Setting, type SettingCategory, settingKeysOf } from "@glide/contracts";
import { History, Search } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { ErrorAlert } from "../../ui/alert.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { PageHeader } from "../shell/page-header.tsx";
import { EditSettingDialog } from "./edit-setting-dialog.tsx";
import { matchesSearch } from "./setting-format.ts";
import { SettingRow } from "./setting-row.tsx";
import { SettingsHistoryDialog } from "./settings-history.tsx";
import { StoreOverrideDialog } from "./store-override-dialog.tsx";
import { useSettings } from "./use-settings.ts";
import { useSettingsParams } from "./use-settings-params.ts";

/** A category's settings in the order the contract lists its keys; keys it does not know come last. */
function inCategory(settings: Setting[], category: SettingCategory): Setting[] {
  const order = settingKeysOf(category);
  const rank = (key: string) => {
    const index = order.indexOf(key);
    return index === -1 ? order.length : index;
  };
  return settings
    .filter((setting) => setting.category === category)
    .sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
}

export default function SettingsPage() {
  const canEditGlobal = useIsPlatformAdmin();
  const settings = useSettings();
  const { tab, setTab, search, setSearch } = useSettingsParams();
  const [drafts, setDrafts] = useState<Readonly<Record<string, string>>>({});
  const [editing, setEditing] = useState<Setting | null>(null);
  const [overriding, setOverriding] = useState<Setting | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);

  const failedAt = settings.isError ? settings.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error("Failed to load settings");
  }, [failedAt]);

  const setDraft = (id: string, draft: string | undefined) =>
    setDrafts((prev) => {
      const { [id]: _old, ...rest } = prev;
      return draft === undefined ? rest : { ...rest, [id]: draft };
    });

  const term = search.trim();
  const all = settings.data ?? [];
  const shown = (category: SettingCategory) =>
    inCategory(all, category).filter((setting) => matchesSearch(setting, term));

  let body: (category: SettingCategory) => ReactNode;
  if (settings.isPending) {
    body = () => <Spinner label="Loading settings" />;
  } else if (settings.isError && !settings.data) {
    body = () => (
      <div className="grid justify-items-start gap-3">
        <ErrorAlert>{errorMessage(settings.error, "Failed to load settings")}</ErrorAlert>
        <Button variant="outline" onClick={() => void settings.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = (category) => {
      const list = shown(category);
      if (list.length === 0) return <p className="py-12 text-center text-muted-foreground">No settings found</p>;
      return (
        <div className="grid gap-3">
          {list.map((setting) => (
            <SettingRow
              key={setting.id}
              setting={setting}
              canEditGlobal={canEditGlobal}
              draft={drafts[setting.id]}
              onDraftChange={(draft) => setDraft(setting.id, draft)}
              onEdit={() => setEditing(setting)}
              onOverride={() => setOverriding(setting)}
            />
          ))}
        </div>
      );
    };
  }

  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader
        title="System Settings"
        description="Manage global defaults and store-specific overrides"
        actions={
          <Button variant="outline" onClick={() => setHistoryOpen(true)}>
            <History aria-hidden="true" />
            History
          </Button>
        }
      />

      <div className="relative min-w-0 sm:max-w-sm">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          type="search"
          aria-label="Search settings"
          placeholder="Search settings..."
          className="pl-9"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>

      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Setting categories" className="sm:w-fit">
          {SETTING_CATEGORIES.map((category) => (
            <TabsTrigger key={category} value={category}>
              {category}
              {term && settings.data ? (
                <span className="rounded-full bg-muted px-1.5 text-xs tabular-nums">
                  {shown(category).length}
                  <span className="sr-only"> found</span>
                </span>
              ) : null}
            </TabsTrigger>
          ))}
        </TabsList>
        {SETTING_CATEGORIES.map((category) => (
          <TabsContent key={category} value={category}>
            {category === tab ? body(category) : null}
          </TabsContent>
        ))}
      </Tabs>

      <EditSettingDialog setting={editing} onOpenChange={(open) => !open && setEditing(null)} />
      <StoreOverrideDialog setting={overriding} onOpenChange={(open) => !open && setOverriding(null)} />
      <SettingsHistoryDialog open={historyOpen} onOpenChange={setHistoryOpen} />
    </div>
  );
}
