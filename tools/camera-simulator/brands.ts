/**
 * Where each brand's devices keep their streams and pictures. The simulator
 * answers only the current brand's addresses, so a client that uses another
 * brand's path gets the 404 a real device would give.
 */
export const BRANDS = ["hikvision", "dahua", "axis", "generic"] as const;
export type Brand = (typeof BRANDS)[number];

type BrandPaths = { stream: string; snapshot: string };

export const BRAND_PATHS: Record<Brand, BrandPaths> = {
  hikvision: { stream: "/Streaming/Channels/{channel}01", snapshot: "/ISAPI/Streaming/channels/{channel}01/picture" },
  dahua: {
    stream: "/cam/realmonitor?channel={channel}&subtype=0",
    snapshot: "/cgi-bin/snapshot.cgi?channel={channel}",
  },
  axis: { stream: "/axis-media/media.amp?camera={channel}", snapshot: "/axis-cgi/jpg/image.cgi?camera={channel}" },
  generic: { stream: "/stream{channel}", snapshot: "/snapshot/{channel}.jpg" },
};

/** The ONVIF snapshot address (GetSnapshotUri), the same for every brand. */
export const ONVIF_SNAPSHOT_PATH = "/onvif/snapshot/{channel}.jpg";

export const fillChannel = (template: string, channel: number) => template.replaceAll("{channel}", String(channel));

export const isBrand = (value: unknown): value is Brand => BRANDS.includes(value as Brand);

/**
 * The channel a request path (with its query) names under `template`, or
 * null. The path must match exactly; the template's query parameters must
 * be there with the same values (others may be added, as clients add
 * resolution or compression), except that a missing channel parameter means
 * channel 1, as the devices that take one treat it.
 */
export function channelOfPath(template: string, pathAndQuery: string, channels: number): number | null {
  let asked: URL;
  try {
    asked = new URL(pathAndQuery, "http://camera");
  } catch {
    return null;
  }
  for (let channel = 1; channel <= channels; channel++) {
    const wanted = new URL(fillChannel(template, channel), "http://camera");
    if (wanted.pathname !== asked.pathname) continue;
    let matches = true;
    for (const [name, value] of wanted.searchParams) {
      const given = asked.searchParams.get(name);
      const channelParam = template.includes(`${name}={channel}`);
      if (given === null && channelParam && channel === 1) continue;
      if (given !== value) matches = false;
    }
    if (matches) return channel;
  }
  return null;
}
