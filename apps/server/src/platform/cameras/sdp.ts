import { parseSps } from "./h264-sps.ts";

/**
 * What a stream is, from the SDP a DESCRIBE returns: the video codec, and
 * the size and frame rate from a=x-dimensions and a=framerate when the
 * camera states them, otherwise from the H.264 SPS in sprop-parameter-sets.
 */
export type StreamFacts = { codec: string | null; width: number | null; height: number | null; fps: number | null };

export function readSdp(sdp: string): StreamFacts {
  const lines = sdp.split(/\r?\n/).map((l) => l.trim());
  const start = lines.findIndex((l) => l.startsWith("m=video"));
  if (start < 0) return { codec: null, width: null, height: null, fps: null };
  const session = lines.slice(0, start);
  const nextMedia = lines.findIndex((l, i) => i > start && l.startsWith("m="));
  const video = lines.slice(start, nextMedia < 0 ? undefined : nextMedia);
  const payload = video[0]!.split(/\s+/)[3] ?? "";
  const attribute = (name: string, where = video) =>
    where
      .find((l) => l.startsWith(`a=${name}:`))
      ?.slice(name.length + 3)
      .trim() ?? null;

  const rtpmap = video.find((l) => l.startsWith(`a=rtpmap:${payload} `));
  const codec = rtpmap ? (rtpmap.split(/\s+/)[1]?.split("/")[0]?.toUpperCase() ?? null) : null;

  let width: number | null = null;
  let height: number | null = null;
  const dimensions = /^(\d+)\s*,\s*(\d+)$/.exec(attribute("x-dimensions") ?? "");
  if (dimensions) [width, height] = [Number(dimensions[1]), Number(dimensions[2])];
  const rate = Number.parseFloat(attribute("framerate") ?? attribute("framerate", session) ?? "");
  let fps: number | null = Number.isFinite(rate) && rate > 0 ? rate : null;

  if (codec === "H264" && (width === null || fps === null)) {
    const fmtp = video.find((l) => l.startsWith(`a=fmtp:${payload} `)) ?? "";
    const sets = /sprop-parameter-sets=([^;\s]+)/.exec(fmtp)?.[1];
    for (const set of sets?.split(",") ?? []) {
      const nal = Buffer.from(set, "base64");
      if ((nal[0]! & 0x1f) !== 7) continue;
      try {
        const sps = parseSps(nal);
        if (width === null) [width, height] = [sps.width, sps.height];
        fps ??= sps.fps;
      } catch {
        // A parameter set we cannot read leaves the size and rate unknown; the stream itself may be fine.
      }
      break;
    }
  }
  return { codec, width, height, fps };
}
