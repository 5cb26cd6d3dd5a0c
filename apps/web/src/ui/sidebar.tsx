import { UI } from "@glide/contracts";
import clsx from "clsx";
import { PanelLeft } from "lucide-react";
import { Dialog as DialogPrimitive, VisuallyHidden } from "radix-ui";
import {
  type CSSProperties,
  createContext,
  type ReactNode,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
} from "react";
import { readCookie, writeCookie } from "../lib/cookies.ts";
import { useMediaQuery } from "../lib/use-media-query.ts";
import { Button } from "./button.tsx";
import { overlayClass, useReturnFocus } from "./dialog.tsx";

interface SidebarContextValue {
  /** Desktop: expanded (true) or collapsed to icons (false). */
  open: boolean;
  /** Phone: the overlay panel is showing. */
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  collapsed: boolean;
  toggle: () => void;
}

const SidebarContext = createContext<SidebarContextValue | null>(null);

export function useSidebar(): SidebarContextValue {
  const context = use(SidebarContext);
  if (!context) throw new Error("useSidebar must be used inside <SidebarProvider>");
  return context;
}

const mobileQuery = `(max-width: ${UI.mobileBreakpointPx - 1}px)`;

export function SidebarProvider({ children }: { children: ReactNode }) {
  const isMobile = useMediaQuery(mobileQuery);
  const [open, setOpen] = useState(() => readCookie(UI.sidebarCookie) !== "false");
  const [openMobile, setOpenMobile] = useState(false);

  const toggle = useCallback(() => {
    if (isMobile) {
      setOpenMobile((value) => !value);
      return;
    }
    const next = !open;
    setOpen(next);
    writeCookie(UI.sidebarCookie, String(next), UI.sidebarCookieMaxAgeSeconds);
  }, [isMobile, open]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() === "b" && (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [toggle]);

  const value = useMemo<SidebarContextValue>(
    () => ({ open, openMobile, setOpenMobile, isMobile, collapsed: !isMobile && !open, toggle }),
    [open, openMobile, isMobile, toggle],
  );

  const style = {
    "--sidebar-width": UI.sidebarWidth,
    "--sidebar-width-icon": UI.sidebarWidthCollapsed,
  } as CSSProperties;

  return (
    <SidebarContext value={value}>
      <div style={style} className="flex min-h-svh w-full">
        {children}
      </div>
    </SidebarContext>
  );
}

/** Desktop: a column of 16rem (3rem collapsed). Phone: a Radix Dialog sheet of 18rem. */
export function Sidebar({ children }: { children: ReactNode }) {
  const { isMobile, openMobile, setOpenMobile, collapsed } = useSidebar();
  const focus = useReturnFocus();

  if (isMobile) {
    return (
      <DialogPrimitive.Root open={openMobile} onOpenChange={setOpenMobile}>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className={overlayClass} />
          <DialogPrimitive.Content
            id="app-sidebar"
            data-state="expanded"
            {...focus}
            // Portalled out of the provider, so the width is set here rather than from its CSS variable.
            style={{ width: UI.sidebarWidthMobile }}
            className="group fixed inset-y-0 left-0 z-50 flex max-w-[85vw] flex-col bg-sidebar text-sidebar-foreground shadow-xl"
          >
            <VisuallyHidden.Root>
              <DialogPrimitive.Title>Sidebar</DialogPrimitive.Title>
              <DialogPrimitive.Description>Displays the mobile sidebar.</DialogPrimitive.Description>
            </VisuallyHidden.Root>
            {children}
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
    );
  }

  return (
    <aside
      id="app-sidebar"
      aria-label="Sidebar"
      data-state={collapsed ? "collapsed" : "expanded"}
      data-sidebar-state={collapsed ? "collapsed" : "expanded"}
      className={clsx(
        "group sticky top-0 flex h-svh shrink-0 flex-col overflow-hidden border-r border-sidebar-border bg-sidebar text-sidebar-foreground",
        "transition-[width] duration-200 ease-out",
        collapsed ? "w-(--sidebar-width-icon)" : "w-(--sidebar-width)",
      )}
    >
      {children}
    </aside>
  );
}

export function SidebarTrigger({ className }: { className?: string }) {
  const { toggle, isMobile, open, openMobile } = useSidebar();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Toggle Sidebar"
      aria-controls={isMobile && !openMobile ? undefined : "app-sidebar"}
      aria-expanded={isMobile ? openMobile : open}
      onClick={toggle}
      className={className}
    >
      <PanelLeft aria-hidden="true" />
    </Button>
  );
}

export function SidebarHeader({ children }: { children: ReactNode }) {
  return <div className="flex h-14 shrink-0 items-center gap-2 border-b border-sidebar-border px-3">{children}</div>;
}

export function SidebarContent({ children }: { children: ReactNode }) {
  return <div className="flex min-h-0 flex-1 flex-col gap-1 overflow-y-auto overflow-x-hidden p-2">{children}</div>;
}

export function SidebarFooter({ children }: { children: ReactNode }) {
  return <div className="flex shrink-0 flex-col gap-1 border-t border-sidebar-border p-2">{children}</div>;
}

/** Shared look of links and buttons in the sidebar; labels become sr-only when collapsed. */
export const sidebarItemClass = clsx(
  "flex h-9 w-full items-center gap-3 overflow-hidden rounded-md px-2 text-left text-sm font-medium",
  "text-sidebar-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground",
  "aria-[current=page]:bg-sidebar-accent aria-[current=page]:font-semibold aria-[current=page]:text-sidebar-accent-foreground",
  "[&>svg]:size-4 [&>svg]:shrink-0",
);

export const sidebarLabelClass = "truncate group-data-[state=collapsed]:sr-only";
