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

/**
 * The cameras feature's device side, on the protocols in platform/cameras.
 * Each call carries the camera networks, so no address goes unchecked.
 */
export function createCameraDevices(): CameraDevices {
  return {
    testConnection: (target, opts) => testConnection(target, { timeoutMs: opts.timeoutMs, networks: opts.networks }),
    streamInfo: (target, channel, streamPath, opts) =>
      streamInfo(target, channel, {
        networks: opts.networks,
        streamPath,
        ...(opts.preset ? { streamPreset: opts.preset as StreamPreset } : {}),
      }),
    probeStream: (url, opts) => streamInfo(standalone(url), 1, { networks: opts.networks, streamPath: url }),
    snapshot: async (target, channel, opts) => {
      const picture = await snapshotPicture(target, channel, {
        networks: opts.networks,
        ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      // The client checks it is a JPEG within the size limit.
      return { image: picture.jpeg, contentType: "image/jpeg" };
    },
    ptz: async (target, channel, command, opts) => {
      await ptz(target, channel, command as Parameters<typeof ptz>[2], { networks: opts.networks });
    },
    ptzPresets: async (target, channel, opts) =>
      (await ptzPresets(target, channel, { networks: opts.networks })).map((p) => ({ number: p.number, name: p.name })),
    hasPtz: async (target, channel, opts) => {
      try {
        await ptzPresets(target, channel, { networks: opts.networks });
        return true;
      } catch (err) {
        if (err instanceof PtzNotSupportedError) return false;
        throw err;
      }
    },
  };
}
