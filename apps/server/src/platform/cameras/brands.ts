import { CAMERA_BRANDS, SETTING_DEFINITIONS } from "@glide/contracts";

/**
 * Where each brand keeps a channel's picture on its web port, and the
 * built-in RTSP stream presets (the settings' brand_presets, which an
 * administrator may change; callers pass the effective ones). `{channel}`
 * is the channel number from 1.
 */

export type Brand = (typeof CAMERA_BRANDS)[number];
export type StreamPreset = { port: number; stream_format: string };

export const SNAPSHOT_PATHS: Record<Brand, string> = {
  hikvision: "/ISAPI/Streaming/channels/{channel}01/picture",
  dahua: "/cgi-bin/snapshot.cgi?channel={channel}",
  axis: "/axis-cgi/jpg/image.cgi?camera={channel}",
  generic: "/snapshot/{channel}.jpg",
};

export const DEFAULT_STREAM_PRESETS = SETTING_DEFINITIONS.camera.brand_presets.value as Record<Brand, StreamPreset>;

/** A brand we know, or generic for anything else. */
export const brandOf = (brand: string): Brand =>
  (CAMERA_BRANDS as readonly string[]).includes(brand) ? (brand as Brand) : "generic";

export const fillChannel = (template: string, channel: number) => template.replaceAll("{channel}", String(channel));
