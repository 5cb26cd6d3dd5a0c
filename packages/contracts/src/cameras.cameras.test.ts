import { describe, expect, it } from "vitest";
import { cameraInputSchema, cameraUpdateSchema, ptzCommandSchema } from "./cameras.ts";
import { keeps, messageAt } from "./testing.ts";

/** Camera input, and pan, tilt and zoom. */

const uuid = "0b7e3c1e-8f4a-4c55-9d3e-2f1a6b7c8d9e";

const camera = { name: "Entré 1" };
const cameraWith = (fields: Record<string, unknown>) => ({ ...camera, ...fields });
const cameraMessage = (fields: Record<string, unknown>, path: string) =>
  messageAt(cameraInputSchema, cameraWith(fields), path);
const parsedCamera = (fields: Record<string, unknown>) => cameraInputSchema.parse(cameraWith(fields));
const takesCamera = (fields: Record<string, unknown>) => cameraInputSchema.safeParse(cameraWith(fields)).success;

describe("camera input", () => {
  it("keeps a whole camera as sent", () => {
    keeps(cameraInputSchema, {
      name: "Entré 1",
      camera_index: 3,
      location_zone: "entrance",
      stream_url: "rtsp://192.168.1.64:554/Streaming/Channels/101",
      resolution: "1920x1080",
      fps: 25,
      camera_system_id: uuid,
      store_id: uuid,
      is_active: false,
      is_ai_enabled: true,
      status: "offline",
    });
  });

  it("needs a name, trimmed, of at most 200 characters", () => {
    expect(cameraInputSchema.parse({ name: " Entré " })).toEqual({ name: "Entré" });
    for (const name of [undefined, 5, "", "  "]) {
      expect(cameraMessage({ name }, "name")).toBe("Camera name is required");
    }
    expect(parsedCamera({ name: "x".repeat(200) }).name).toHaveLength(200);
    expect(takesCamera({ name: "x".repeat(201) })).toBe(false);
  });

  it("takes a camera index from 1 to 256", () => {
    for (const camera_index of [1, 256]) expect(parsedCamera({ camera_index }).camera_index).toBe(camera_index);
    for (const camera_index of ["3", 1.5]) {
      expect(cameraMessage({ camera_index }, "camera_index")).toBe("Camera index must be a whole number");
    }
    expect(cameraMessage({ camera_index: 0 }, "camera_index")).toBe("Camera index must be from 1");
    expect(cameraMessage({ camera_index: 257 }, "camera_index")).toBe("Camera index must be at most 256");
  });

  it("takes a whole fps up to 240 here; the settings' narrower range is the server's check", () => {
    for (const fps of [1, 240]) expect(parsedCamera({ fps }).fps).toBe(fps);
    for (const fps of ["25", 29.97, 0]) expect(cameraMessage({ fps }, "fps")).toBe("FPS must be a whole number");
    expect(cameraMessage({ fps: 241 }, "fps")).toBe("FPS must be from 15 to 60");
  });

  it("takes a stream path on the camera's system, or an rtsp(s) address without credentials", () => {
    const taken = [
      "/Streaming/Channels/101",
      "/",
      "rtsp://cam.local:554/live",
      "rtsps://cam.local/live/main",
      "rtsp://cam.local:554",
      "rtsp://cam.local",
      "rtsp://[fe80::1]:554/live",
    ];
    for (const stream_url of taken) expect(parsedCamera({ stream_url }).stream_url).toBe(stream_url);
    expect(parsedCamera({ stream_url: " /live " }).stream_url).toBe("/live");
    for (const stream_url of ["", "  ", null]) expect(parsedCamera({ stream_url }).stream_url).toBeNull();
    const refused = [
      "rtsp://admin:hemligt@cam.local:554/live",
      "rtsp://admin@cam.local/live",
      "http://cam.local/live",
      "Streaming/Channels/101",
      "xrtsp://cam.local/live",
      "rtsp://ca m.local/live",
      "rtsp:///live",
      "rtsp://cam.local/live now",
      "rtsp://cam.local:abc/live",
      "rtsp://cam.local:/live",
      "rtsp://cam.local:554:554/live",
      "rtsp://fe80::1/live",
      "rtsp://[cam.local]/live",
    ];
    for (const stream_url of refused) {
      expect(cameraMessage({ stream_url }, "stream_url")).toBe(
        "Stream URL is a path such as /Streaming/Channels/101, or rtsp://host:554/path without user name or password",
      );
    }
    const longest = `/${"s".repeat(499)}`;
    expect(parsedCamera({ stream_url: longest }).stream_url).toBe(longest);
    expect(takesCamera({ stream_url: `${longest}s` })).toBe(false);
    expect(takesCamera({ stream_url: 101 })).toBe(false);
  });

  it("takes only the zones, resolutions and statuses the console offers", () => {
    for (const location_zone of ["entrance", "exit", "aisle", "checkout", "storage", "other"]) {
      expect(parsedCamera({ location_zone }).location_zone).toBe(location_zone);
    }
    for (const resolution of ["1280x720", "1920x1080", "2560x1440", "3840x2160"]) {
      expect(parsedCamera({ resolution }).resolution).toBe(resolution);
    }
    for (const status of ["online", "active", "offline", "inactive", "unknown"]) {
      expect(parsedCamera({ status }).status).toBe(status);
    }
    for (const field of ["location_zone", "resolution", "status"]) {
      expect(takesCamera({ [field]: "other2" })).toBe(false);
    }
  });

  it("reads an empty system or store as none, and refuses an id that is not a UUID", () => {
    expect(parsedCamera({ camera_system_id: "", store_id: "" })).toMatchObject({
      camera_system_id: null,
      store_id: null,
    });
    expect(parsedCamera({ camera_system_id: null, store_id: null })).toMatchObject({
      camera_system_id: null,
      store_id: null,
    });
    for (const field of ["camera_system_id", "store_id"]) {
      expect(cameraMessage({ [field]: "nvr-1" }, field)).toBe("Must be a valid id (UUID)");
    }
  });

  it("lets an edit send only what changes, checked by the same rules", () => {
    expect(cameraUpdateSchema.parse({ is_active: false })).toEqual({ is_active: false });
    expect(cameraUpdateSchema.safeParse({ fps: 0 }).success).toBe(false);
  });
});

describe("pan, tilt and zoom", () => {
  it("takes each action the camera understands, at speed 50 unless told", () => {
    for (const action of ["tilt_up", "tilt_down", "pan_left", "pan_right", "stop", "zoom_in", "zoom_out"]) {
      expect(ptzCommandSchema.parse({ action })).toEqual({ action, speed: 50 });
    }
    expect(ptzCommandSchema.parse({ action: "goto_preset", preset: 3 })).toEqual({
      action: "goto_preset",
      speed: 50,
      preset: 3,
    });
    expect(ptzCommandSchema.safeParse({ action: "spin" }).success).toBe(false);
  });

  it("takes a speed from 1 to 100", () => {
    for (const speed of [1, 100]) expect(ptzCommandSchema.parse({ action: "pan_left", speed }).speed).toBe(speed);
    for (const speed of ["50", 2.5]) {
      expect(messageAt(ptzCommandSchema, { action: "pan_left", speed }, "speed")).toBe(
        "Speed must be a whole number from 1 to 100",
      );
    }
    for (const speed of [0, 101]) {
      expect(messageAt(ptzCommandSchema, { action: "pan_left", speed }, "speed")).toBe("Speed must be from 1 to 100");
    }
  });

  it("goes to a preset from 1 to 1000, and only with its number", () => {
    for (const preset of [1, 1000]) keeps(ptzCommandSchema, { action: "goto_preset", speed: 10, preset });
    for (const preset of [0, 1001, 2.5]) {
      expect(ptzCommandSchema.safeParse({ action: "goto_preset", preset }).success).toBe(false);
    }
    expect(ptzCommandSchema.safeParse({ action: "goto_preset" }).error?.issues).toEqual([
      expect.objectContaining({ path: ["preset"], message: "goto_preset needs a preset number" }),
    ]);
  });
});
