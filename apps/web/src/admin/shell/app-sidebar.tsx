import { useQueryClient } from "@tanstack/react-query";
import { History, LogOut, Moon, Sun, UserRound } from "lucide-react";
import { useEffect } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { setTheme, useTheme } from "../../lib/theme.ts";
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarHeader,
  sidebarItemClass,
  sidebarLabelClass,
  useSidebar,
} from "../../ui/sidebar.tsx";
import { Tooltip } from "../../ui/tooltip.tsx";
import { useAdmin } from "../auth/admin-context.ts";
import { useLogout } from "../auth/use-admin-auth.ts";
import { NAV_ITEMS } from "./nav-items.ts";

export function AppSidebar() {
  const { collapsed, isMobile, setOpenMobile } = useSidebar();
  const { pathname } = useLocation();

  // The phone overlay closes once a link has been followed.
  useEffect(() => {
    if (isMobile && pathname) setOpenMobile(false);
  }, [pathname, isMobile, setOpenMobile]);

  return (
    <Sidebar>
      <SidebarHeader>
        <span
          aria-hidden="true"
          className="flex size-7 shrink-0 items-center justify-center rounded-md bg-primary text-sm font-bold text-primary-foreground"
        >
          G
        </span>
        <h2 className={`text-base font-semibold ${sidebarLabelClass}`}>Admin</h2>
      </SidebarHeader>
      <SidebarContent>
        <nav aria-label="Main">
          <ul className="grid gap-1">
            {NAV_ITEMS.map(({ title, to, icon: Icon }) => (
              <li key={to}>
                <Tooltip content={title} side="right" disabled={!collapsed}>
                  <NavLink
                    to={to}
                    end={to === "/"}
                    className={sidebarItemClass}
                    // On phones the overlay closes once a link is followed, even to the current page.
                    onClick={() => isMobile && setOpenMobile(false)}
                  >
                    <Icon aria-hidden="true" />
                    <span className={sidebarLabelClass}>{title}</span>
                  </NavLink>
                </Tooltip>
              </li>
            ))}
          </ul>
        </nav>
      </SidebarContent>
      <SidebarFooter>
        <AccountFooter collapsed={collapsed} />
      </SidebarFooter>
    </Sidebar>
  );
}

function AccountFooter({ collapsed }: { collapsed: boolean }) {
  const admin = useAdmin();
  const theme = useTheme();
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const dark = theme === "dark";
  // The button says what pressing it does, in its words and its icon alike (as the shopper app's does).
  const themeAction = dark ? "Switch to light theme" : "Switch to dark theme";

  const signOut = () => {
    // Leave even if the call fails: the visitor asked to be signed out.
    logout.mutate(undefined, {
      onSettled: () => {
        void navigate("/login", { replace: true });
        queryClient.getQueryCache().clear();
      },
    });
  };

  return (
    <>
      <Tooltip content={admin.email} side="right" disabled={!collapsed}>
        <div className="flex h-9 items-center gap-3 px-2 text-sm text-muted-foreground">
          <UserRound aria-hidden="true" className="size-4 shrink-0" />
          <span className={sidebarLabelClass} title={admin.email}>
            {admin.email}
          </span>
        </div>
      </Tooltip>
      {admin.role === "platform_admin" ? (
        <Tooltip content="Audit log" side="right" disabled={!collapsed}>
          <NavLink to="/audit" className={sidebarItemClass}>
            <History aria-hidden="true" />
            <span className={sidebarLabelClass}>Audit log</span>
          </NavLink>
        </Tooltip>
      ) : null}
      <Tooltip content={themeAction} side="right" disabled={!collapsed}>
        <button type="button" className={sidebarItemClass} onClick={() => setTheme(dark ? "light" : "dark")}>
          {dark ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
          <span className={sidebarLabelClass}>{themeAction}</span>
        </button>
      </Tooltip>
      <Tooltip content="Sign out" side="right" disabled={!collapsed}>
        <button type="button" className={sidebarItemClass} onClick={signOut} disabled={logout.isPending}>
          <LogOut aria-hidden="true" />
          <span className={sidebarLabelClass}>Sign out</span>
        </button>
      </Tooltip>
    </>
  );
}
