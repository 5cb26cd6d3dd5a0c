import { decrypt, encrypt } from "../../platform/crypto.ts";
import type { SystemRow } from "./camera-records.ts";

/** Seals a camera system's password for the database and opens it for the device client. */
export type Sealer = { seal(plain: string): string; open(sealed: string): string };

/** The sealer that encrypts with the server's key. */
export const sealerFor = (key: Buffer): Sealer => ({
  seal: (plain) => encrypt(key, plain),
  open: (sealed) => decrypt(key, sealed),
});

/** The connection data the device client needs, the password unsealed; never sent to a browser. */
export type DeviceTarget = {
  connection_type: "rtsp" | "http" | "onvif";
  brand: string;
  host: string;
  port: number;
  username: string | null;
  password: string | null;
  api_endpoint: string | null;
};

/** What the device client is given to reach a stored system. */
export function targetOf(system: SystemRow, sealer: Sealer): DeviceTarget {
  return {
    connection_type: system.connectionType as DeviceTarget["connection_type"],
    brand: system.brand,
    host: system.host,
    port: system.port,
    username: system.username,
    password: system.passwordSealed ? sealer.open(system.passwordSealed) : null,
    api_endpoint: system.apiEndpoint,
  };
}
