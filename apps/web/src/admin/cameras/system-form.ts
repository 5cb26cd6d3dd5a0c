import type { CameraSystem, CameraSystemInput, ConnectionTestInput } from "@glide/contracts";
import { fieldMapper } from "../../lib/form-errors.ts";
import type { CameraOptions } from "./camera-options.ts";

/** What the system dialog's inputs hold: text as typed; converted by toSystemInput on submit. */
export interface SystemFormValues {
  name: string;
  type: string;
  brand: string;
  status: string;
  connection_type: string;
  host: string;
  port: string;
  username: string;
  password: string;
  api_endpoint: string;
  store_id: string;
  notes: string;
}

/** The dialog's four tabs and their fields, in the order shown (spec §2 System dialog). */
export const SYSTEM_TABS = {
  basic: ["name", "type", "brand", "status"],
  connection: ["connection_type", "host", "port", "username", "password", "api_endpoint"],
  store: ["store_id"],
  settings: ["notes"],
} as const satisfies Record<string, readonly (keyof SystemFormValues)[]>;

export const systemFieldOf = fieldMapper<SystemFormValues>(Object.values(SYSTEM_TABS).flat());

/** A new system starts as "active" until the health check has seen it. */
const NEW_SYSTEM_STATUS = "active";

export function toSystemFormValues(
  system: CameraSystem | undefined,
  options: Pick<CameraOptions, "systemDefaults" | "brandPresets">,
  storeId = "",
): SystemFormValues {
  const defaults = options.systemDefaults;
  const brand = system?.brand ?? defaults.brand;
  const port = system?.port ?? options.brandPresets[brand as keyof typeof options.brandPresets]?.port ?? defaults.port;
  return {
    name: system?.name ?? "",
    type: system?.type ?? defaults.type,
    brand,
    status: system?.status ?? NEW_SYSTEM_STATUS,
    connection_type: system?.connection_type ?? defaults.connection_type,
    host: system?.host ?? "",
    port: String(port),
    username: system?.username ?? "",
    // Never sent to the browser: empty on edit keeps the stored one.
    password: "",
    api_endpoint: system?.api_endpoint ?? "",
    store_id: system?.store_id ?? storeId,
    notes: system?.notes ?? "",
  };
}

/** A whole number as typed; anything else is sent as it is, for the server to name the problem. */
export function integer(value: string): number {
  const trimmed = value.trim();
  return trimmed === "" ? Number.NaN : Number(trimmed);
}

/**
 * Whether saving would drop the system's saved password: the server keeps a
 * password only for the host, port, connection type and user name it was
 * saved with, unless a new one comes with the change.
 */
export function clearsSavedPassword(
  system: CameraSystem | undefined,
  values: Pick<SystemFormValues, "connection_type" | "host" | "port" | "username" | "password">,
): boolean {
  if (!system?.has_password || values.password !== "") return false;
  const bare = (host: string) =>
    host
      .trim()
      .replace(/^\[(.*)\]$/, "$1")
      .toLowerCase();
  return (
    values.connection_type !== system.connection_type ||
    bare(values.host) !== bare(system.host) ||
    integer(values.port) !== system.port ||
    (values.username.trim() || null) !== system.username
  );
}

export function toSystemInput(values: SystemFormValues): CameraSystemInput {
  return {
    name: values.name.trim(),
    type: values.type as CameraSystemInput["type"],
    brand: values.brand as CameraSystemInput["brand"],
    status: values.status as CameraSystemInput["status"],
    connection_type: values.connection_type as CameraSystemInput["connection_type"],
    host: values.host.trim(),
    // NaN is sent as null, which the server refuses beside the field ("Port must be a whole number...").
    port: integer(values.port),
    username: values.username.trim() || null,
    ...(values.password === "" ? {} : { password: values.password }),
    api_endpoint: values.api_endpoint.trim() || null,
    store_id: values.store_id,
    notes: values.notes.trim() || null,
  };
}

/** The connection settings as typed, for Test Connection before saving; the system names its saved password. */
export function toConnectionTestInput(values: SystemFormValues, systemId?: string): ConnectionTestInput {
  const input = toSystemInput(values);
  return {
    connection_type: input.connection_type,
    brand: input.brand,
    host: input.host,
    port: input.port,
    username: input.username,
    ...(input.password === undefined ? {} : { password: input.password }),
    api_endpoint: input.api_endpoint,
    store_id: input.store_id,
    ...(systemId ? { system_id: systemId } : {}),
  };
}
