/**
 * Reads the picture size and frame rate from an H.264 sequence parameter set
 * (ITU-T H.264 §7.3.2.1.1 and Annex E), as cameras send it in the SDP's
 * sprop-parameter-sets. Only what leads to the size and the VUI timing is
 * read; everything before it is skipped field by field.
 */

class BitReader {
  private bit = 0;
  private readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new RangeError("The SPS ended early");
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      zeros++;
      if (zeros > 31) throw new RangeError("Exp-Golomb code too long");
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -k / 2;
  }
}

/** The NAL payload without emulation_prevention_three_byte (00 00 03 → 00 00). */
function withoutEmulationBytes(nal: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

function skipScalingList(r: BitReader, size: number) {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + r.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

const CHROMA_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

export type SpsInfo = { profile: number; level: number; width: number; height: number; fps: number | null };

/** Parses one SPS NAL unit (starting with its header byte); throws on anything that is not one. */
export function parseSps(nal: Uint8Array): SpsInfo {
  if (nal.length < 4 || (nal[0]! & 0x1f) !== 7) throw new RangeError("Not an SPS NAL unit");
  const r = new BitReader(withoutEmulationBytes(nal.subarray(1)));
  const profile = r.u(8);
  r.u(8); // constraint flags
  const level = r.u(8);
  r.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  let separateColourPlanes = 0;
  if (CHROMA_PROFILES.has(profile)) {
    chromaFormat = r.ue();
    if (chromaFormat === 3) separateColourPlanes = r.u(1);
    r.ue(); // bit_depth_luma_minus8
    r.ue(); // bit_depth_chroma_minus8
    r.u(1); // qpprime_y_zero_transform_bypass_flag
    if (r.u(1)) {
      for (let i = 0; i < (chromaFormat === 3 ? 12 : 8); i++) {
        if (r.u(1)) skipScalingList(r, i < 6 ? 16 : 64);
      }
    }
  }
  r.ue(); // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) r.ue();
  else if (pocType === 1) {
    r.u(1);
    r.se();
    r.se();
    const cycle = r.ue();
    for (let i = 0; i < cycle; i++) r.se();
  }
  r.ue(); // max_num_ref_frames
  r.u(1); // gaps_in_frame_num_value_allowed_flag
  const widthInMbs = r.ue() + 1;
  const heightInMapUnits = r.ue() + 1;
  const frameMbsOnly = r.u(1);
  if (!frameMbsOnly) r.u(1); // mb_adaptive_frame_field_flag
  r.u(1); // direct_8x8_inference_flag
  let crop = { left: 0, right: 0, top: 0, bottom: 0 };
  if (r.u(1)) crop = { left: r.ue(), right: r.ue(), top: r.ue(), bottom: r.ue() };
  // Crop units (§7.4.2.1.1): two pixels across for 4:2:0 and 4:2:2, and two down for 4:2:0.
  const chromaArray = separateColourPlanes ? 0 : chromaFormat;
  const cropX = chromaArray === 0 ? 1 : chromaArray === 3 ? 1 : 2;
  const cropY = (chromaArray === 1 ? 2 : 1) * (2 - frameMbsOnly);
  const width = widthInMbs * 16 - (crop.left + crop.right) * cropX;
  const height = (2 - frameMbsOnly) * heightInMapUnits * 16 - (crop.top + crop.bottom) * cropY;

  let fps: number | null = null;
  if (r.u(1)) fps = readVuiFrameRate(r);
  return { profile, level, width, height, fps };
}

function readVuiFrameRate(r: BitReader): number | null {
  if (r.u(1) && r.u(8) === 255) r.u(32); // aspect_ratio_idc Extended_SAR: sar_width, sar_height
  if (r.u(1)) r.u(1); // overscan
  if (r.u(1)) {
    r.u(4); // video_format, video_full_range_flag
    if (r.u(1)) r.u(24); // colour primaries, transfer, matrix
  }
  if (r.u(1)) {
    r.ue();
    r.ue();
  }
  if (!r.u(1)) return null;
  const unitsInTick = r.u(32);
  const timeScale = r.u(32);
  if (unitsInTick === 0 || timeScale === 0) return null;
  // Two ticks a frame (Annex E, Equation E-37, for frame-coded streams).
  return Math.round((timeScale / (2 * unitsInTick)) * 100) / 100;
}
