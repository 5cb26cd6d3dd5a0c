import { describe, expect, it } from "vitest";
import {
  cameraIdParams,
  cameraSchema,
  cameraSystemInputSchema,
  cameraSystemSchema,
  cameraSystemUpdateSchema,
  connectionTestInputSchema,
  connectionTestSchema,
  ptzPresetSchema,
  snapshotSchema,
  statusChangeSchema,
  streamInfoSchema,
} from "./cameras.ts";
import { keeps, messageAt } from "./testing.ts";

/** Camera system input, what the API answers about systems and cameras, and connection test input. */

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";

const system = { name: "NVR", host: "nvr.butik.local", port: 554, store_id: uuid };
const systemWith = (fields: Record<string, unknown>) => ({ ...system, ...fields });
const systemMessage = (fields: Record<string, unknown>, path: string) =>
  messageAt(cameraSystemInputSchema, systemWith(fields), path);
const parsedSystem = (fields: Record<string, unknown>) => cameraSystemInputSchema.parse(systemWith(fields));
const takesSystem = (fields: Record<string, unknown>) => cameraSystemInputSchema.safeParse(systemWith(fields)).success;

describe("camera system input", () => {
  it("keeps a whole system as sent", () => {
    keeps(cameraSystemInputSchema, {
      name: "NVR kassa",
      type: "nvr",
      brand: "hikvision",
      status: "active",
      connection_type: "onvif",
      host: "192.168.1.10",
      port: 80,
      username: "admin",
      password: " hemligt lösen ",
      api_endpoint: "/onvif/device_service",
      store_id: uuid,
      notes: "Ovanför dörren",
    });
  });

  it("needs a name, trimmed, of at most 200 characters", () => {
    expect(parsedSystem({ name: " NVR " }).name).toBe("NVR");
    for (const name of [undefined, 5, "", "   "]) {
      expect(systemMessage({ name }, "name")).toBe("System name is required");
    }
    expect(parsedSystem({ name: ` ${"x".repeat(200)} ` }).name).toHaveLength(200);
    expect(takesSystem({ name: "x".repeat(201) })).toBe(false);
  });

  it("takes a host name or an IP address, trimmed, and nothing with a scheme, a path or a port", () => {
    expect(parsedSystem({ host: " nvr.butik.local " }).host).toBe("nvr.butik.local");
    // A name of hex digits alone would also pass as an IPv6 address, so each label has a "g".
    const label = (c: string) => `${c}g${c}${c}`;
    const names = ["A", "Z", "a", "z", "0", "9"].map((c) => `${label(c)}.${label(c)}`);
    const addresses = ["192.168.1.10", "[2001:db8::1]", "fe80::a9", "FE80::A", "::ffff:192.0.2.1"];
    for (const host of [...names, ...addresses, "x", "x.y", "xy.zw", "cam-1.butik-2.local", "camera"]) {
      expect(parsedSystem({ host }).host).toBe(host);
    }
    const refused = [
      "-cam.local",
      "cam-.local",
      "cam.-local",
      "cam.local-",
      "cam..local",
      "cam_1.local",
      "cam.lo_cal",
      "http://cam.local",
      "cam.local/onvif",
      "cam.local:554",
      "http://[::1]",
      "g::1",
      "::1/onvif",
      "[::1]:554",
    ];
    for (const host of refused) {
      expect(systemMessage({ host }, "host")).toBe(
        "Host must be a host name or an IP address, without http:// or a path",
      );
    }
    for (const host of [undefined, 5, "", "   "]) expect(systemMessage({ host }, "host")).toBe("Host is required");
  });

  it("takes host labels of up to 63 characters and host names of up to 253", () => {
    const longest = `${`${"x".repeat(63)}.`.repeat(3)}${"x".repeat(61)}`;
    expect(longest).toHaveLength(253);
    expect(parsedSystem({ host: longest }).host).toBe(longest);
    expect(takesSystem({ host: `${longest}x` })).toBe(false);
    expect(parsedSystem({ host: `${"x".repeat(63)}.local` }).host).toBe(`${"x".repeat(63)}.local`);
    expect(takesSystem({ host: `${"x".repeat(64)}.local` })).toBe(false);
    expect(takesSystem({ host: `cam.${"x".repeat(64)}` })).toBe(false);
  });

  it("takes a port from 1 to 65535", () => {
    for (const port of [1, 65535]) expect(parsedSystem({ port }).port).toBe(port);
    for (const port of [undefined, "554", 0, 65536, 55.4]) {
      expect(systemMessage({ port }, "port")).toBe("Port must be a whole number from 1 to 65535");
    }
  });

  it("takes only the types, brands, statuses and connections the console offers", () => {
    for (const type of ["nvr", "dvr", "standalone"]) expect(parsedSystem({ type }).type).toBe(type);
    for (const brand of ["hikvision", "dahua", "axis", "generic"]) expect(parsedSystem({ brand }).brand).toBe(brand);
    for (const status of ["online", "active", "offline", "inactive", "unknown"]) {
      expect(parsedSystem({ status }).status).toBe(status);
    }
    for (const connection_type of ["rtsp", "http", "onvif"]) {
      expect(parsedSystem({ connection_type }).connection_type).toBe(connection_type);
    }
    for (const field of ["type", "brand", "status", "connection_type"]) {
      expect(takesSystem({ [field]: "other" })).toBe(false);
    }
  });

  it("stores an empty user name or note as none, trims them, and keeps their limits", () => {
    expect(parsedSystem({ username: " admin ", notes: " Vid kassan " })).toMatchObject({
      username: "admin",
      notes: "Vid kassan",
    });
    for (const empty of ["", "  ", null]) {
      expect(parsedSystem({ username: empty, notes: empty })).toMatchObject({ username: null, notes: null });
    }
    expect(parsedSystem({ username: "u".repeat(100), notes: "n".repeat(2000) })).toMatchObject({
      username: "u".repeat(100),
      notes: "n".repeat(2000),
    });
    expect(takesSystem({ username: "u".repeat(101) })).toBe(false);
    expect(takesSystem({ notes: "n".repeat(2001) })).toBe(false);
    expect(takesSystem({ username: 5 })).toBe(false);
  });

  it("keeps a password exactly as typed, and an empty one means the stored password stays", () => {
    expect(parsedSystem({ password: " p w " }).password).toBe(" p w ");
    expect(parsedSystem({ password: "" }).password).toBeUndefined();
    expect(parsedSystem({ password: "p".repeat(200) }).password).toHaveLength(200);
    expect(takesSystem({ password: "p".repeat(201) })).toBe(false);
    expect(takesSystem({ password: 1234 })).toBe(false);
  });

  it("takes an API endpoint that is a path on the device", () => {
    expect(parsedSystem({ api_endpoint: " /ISAPI/System " }).api_endpoint).toBe("/ISAPI/System");
    expect(parsedSystem({ api_endpoint: "" }).api_endpoint).toBeNull();
    expect(parsedSystem({ api_endpoint: "/" }).api_endpoint).toBe("/");
    const longest = `/${"a".repeat(299)}`;
    expect(parsedSystem({ api_endpoint: longest }).api_endpoint).toBe(longest);
    expect(takesSystem({ api_endpoint: `${longest}a` })).toBe(false);
    for (const api_endpoint of ["onvif/device_service", "http://cam/onvif", "/onvif device_service"]) {
      expect(systemMessage({ api_endpoint }, "api_endpoint")).toBe(
        'API endpoint is a path on the device starting with "/", e.g. /onvif/device_service',
      );
    }
  });

  it("needs a store", () => {
    for (const store_id of [undefined, "", "butik-1"]) {
      expect(systemMessage({ store_id }, "store_id")).toBe("Store is required");
    }
  });

  it("lets an edit send only what changes, checked by the same rules", () => {
    expect(cameraSystemUpdateSchema.parse({})).toEqual({});
    expect(cameraSystemUpdateSchema.parse({ port: 8000 })).toEqual({ port: 8000 });
    expect(cameraSystemUpdateSchema.safeParse({ port: 0 }).success).toBe(false);
  });
});

describe("camera answers and paths", () => {
  it("keep every field, and a system says only whether it has a password", () => {
    const answer = {
      ...systemWith({ type: "nvr", brand: "axis", status: "online", connection_type: "rtsp" }),
      id: uuid,
      username: null,
      has_password: true,
      api_endpoint: null,
      store_id: null,
      notes: null,
      last_checked_at: "2026-03-01T10:00:00.000Z",
      created_at: "2026-01-01T10:00:00.000Z",
    };
    keeps(cameraSystemSchema, answer);
    expect(cameraSystemSchema.parse({ ...answer, password: "hemligt" })).toEqual(answer);
    keeps(cameraSchema, {
      id: uuid,
      name: "Entré 1",
      camera_index: 1,
      location_zone: "entrance",
      stream_url: null,
      resolution: "1920x1080",
      fps: 25,
      camera_system_id: uuid,
      store_id: uuid,
      is_active: true,
      is_ai_enabled: false,
      status: "unknown",
      has_ptz: true,
      reported_resolution: "1280x720",
      reported_fps: 25,
      last_checked_at: null,
      created_at: "2026-01-01T10:00:00.000Z",
    });
  });

  it("say how a connection test went, and what the device said about itself", () => {
    const device = { manufacturer: "Axis", model: "P3245", firmware: null };
    keeps(connectionTestSchema, { status: "success", message: "Connected", step: "onvif", duration_ms: 42, device });
    keeps(connectionTestSchema, {
      status: "failed",
      message: "No answer",
      step: "connect",
      duration_ms: 5000,
      device: null,
    });
    expect(
      connectionTestSchema.safeParse({ status: "ok", message: "", step: "", duration_ms: 1, device: null }).success,
    ).toBe(false);
  });

  it("keep streams, snapshots, presets and status changes whole", () => {
    keeps(streamInfoSchema, {
      stream_url: "rtsp://cam.local/live",
      resolution: "1920x1080",
      fps: 25,
      status: "online",
    });
    keeps(snapshotSchema, { snapshot_url: "/api/v1/cameras/snapshots/a.jpg", taken_at: "2026-03-01T10:00:00Z" });
    keeps(ptzPresetSchema, { number: 2, name: "Kassan" });
    keeps(statusChangeSchema, { status: "offline", message: null, changed_at: "2026-03-01T10:00:00Z" });
  });

  it("check the id in the path", () => {
    keeps(cameraIdParams, { id: uuid });
    expect(messageAt(cameraIdParams, { id: "1" }, "id")).toBe("Must be a valid id (UUID)");
  });
});

describe("connection test input", () => {
  it("takes the connection fields as typed, with the rules of a system, and the system being edited", () => {
    const typed = {
      connection_type: "onvif",
      brand: "axis",
      host: "192.168.1.10",
      port: 80,
      username: "admin",
      password: "lösen",
      api_endpoint: "/onvif/device_service",
      store_id: uuid,
      system_id: uuid,
    };
    keeps(connectionTestInputSchema, typed);
    // An empty password is none: the stored one, when the address is unchanged.
    expect(connectionTestInputSchema.parse({ ...typed, password: "" }).password).toBeUndefined();
    // Name, notes and status are not part of a connection.
    expect(connectionTestInputSchema.parse({ ...typed, name: "NVR", notes: "x" })).toEqual(typed);
    expect(messageAt(connectionTestInputSchema, { ...typed, host: "http://nvr/" }, "host")).toBe(
      "Host must be a host name or an IP address, without http:// or a path",
    );
    expect(messageAt(connectionTestInputSchema, { ...typed, port: 0 }, "port")).toBe(
      "Port must be a whole number from 1 to 65535",
    );
    expect(messageAt(connectionTestInputSchema, { ...typed, store_id: "" }, "store_id")).toBe("Store is required");
    expect(messageAt(connectionTestInputSchema, { ...typed, system_id: "7" }, "system_id")).toBe(
      "Must be a valid id (UUID)",
    );
  });
});
