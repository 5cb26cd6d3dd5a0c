import {
  type CameraSystemConnection,
  PtzNotSupportedError,
  ptz,
  ptzPresets,
  type StreamPreset,
  snapshotPicture,
  streamInfo,
  testConnection,
} from "../../platform/cameras/index.ts";
import type { CameraDevices } from "./device-ops.ts";

/** A standalone camera is reached at its own rtsp:// address, with no system and no credentials. */
function standalone(url: string): CameraSystemConnection {
  const u = new URL(url);
  return {
    connection_type: "rtsp",
    brand: "generic",
    host: u.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: Number(u.port || 554),
    username: null,
    password: null,
    api_endpoint: null,
  };
}

/** The cameras feature's device side, on the protocols in platform/cameras. */
export function createCameraDevices(): CameraDevices {
  return {
    testConnection: (target, opts) => testConnection(target, { timeoutMs: opts.timeoutMs }),
    streamInfo: (target, channel, streamPath, preset?: StreamPreset) =>
      streamInfo(target, channel, { streamPath, ...(preset ? { streamPreset: preset } : {}) }),
    probeStream: (url) => streamInfo(standalone(url), 1, { streamPath: url }),
    snapshot: async (target, channel) => {
      const picture = await snapshotPicture(target, channel);
      // The client checks it is a JPEG within the size limit.
      return { image: picture.jpeg, contentType: "image/jpeg" };
    },
    ptz: async (target, channel, command) => {
      await ptz(target, channel, command as Parameters<typeof ptz>[2]);
    },
    ptzPresets: async (target, channel) =>
      (await ptzPresets(target, channel)).map((p) => ({ number: p.number, name: p.name })),
    hasPtz: async (target, channel) => {
      try {
        await ptzPresets(target, channel);
        return true;
      } catch (err) {
        if (err instanceof PtzNotSupportedError) return false;
        throw err;
      }
    },
  };
}
