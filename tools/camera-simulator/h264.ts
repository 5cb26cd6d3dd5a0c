/**
 * The H.264 parameter sets a camera puts in its SDP (sprop-parameter-sets):
 * a High-profile SPS that encodes the channel's width and height (in 16-pixel
 * macroblocks, cropped to the exact size) and its frame rate (VUI timing:
 * time_scale / (2 × num_units_in_tick)), and a matching PPS. Written bit by
 * bit from ITU-T H.264 §7.3.2.1 and §7.3.2.2.
 */

class BitWriter {
  private bits: number[] = [];
  u(count: number, value: number) {
    for (let i = count - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2);
  }
  /** Unsigned Exp-Golomb. */
  ue(value: number) {
    const coded = value + 1;
    const length = Math.floor(Math.log2(coded));
    this.u(length, 0);
    this.u(length + 1, coded);
  }
  /** Signed Exp-Golomb. */
  se(value: number) {
    this.ue(value <= 0 ? -2 * value : 2 * value - 1);
  }
  /** rbsp_trailing_bits, then the bytes. */
  finish(): Buffer {
    this.bits.push(1);
    while (this.bits.length % 8 !== 0) this.bits.push(0);
    const out = Buffer.alloc(this.bits.length / 8);
    for (let i = 0; i < this.bits.length; i++) out[i >> 3]! |= this.bits[i]! << (7 - (i & 7));
    return out;
  }
}

/** Inserts emulation_prevention_three_byte where the payload would otherwise look like a start code. */
function escapeRbsp(rbsp: Buffer): Buffer {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Buffer.from(out);
}

const HIGH_PROFILE = 100;

/** The level a stream of this size and rate needs (Table A-1, by macroblocks per second). */
export function levelFor(width: number, height: number, fps: number): number {
  const mbps = Math.ceil(width / 16) * Math.ceil(height / 16) * fps;
  const levels: [number, number][] = [
    [108_000, 31],
    [216_000, 32],
    [245_760, 40],
    [522_240, 42],
    [589_824, 50],
    [983_040, 51],
  ];
  return levels.find(([max]) => mbps <= max)?.[1] ?? 52;
}

export function sequenceParameterSet(width: number, height: number, fps: number): Buffer {
  const w = new BitWriter();
  w.u(8, HIGH_PROFILE);
  w.u(8, 0); // constraint_set flags and reserved_zero_2bits
  w.u(8, levelFor(width, height, fps));
  w.ue(0); // seq_parameter_set_id
  w.ue(1); // chroma_format_idc: 4:2:0
  w.ue(0); // bit_depth_luma_minus8
  w.ue(0); // bit_depth_chroma_minus8
  w.u(1, 0); // qpprime_y_zero_transform_bypass_flag
  w.u(1, 0); // seq_scaling_matrix_present_flag
  w.ue(4); // log2_max_frame_num_minus4
  w.ue(0); // pic_order_cnt_type
  w.ue(4); // log2_max_pic_order_cnt_lsb_minus4
  w.ue(1); // max_num_ref_frames
  w.u(1, 0); // gaps_in_frame_num_value_allowed_flag
  const mbWide = Math.ceil(width / 16);
  const mbHigh = Math.ceil(height / 16);
  w.ue(mbWide - 1); // pic_width_in_mbs_minus1
  w.ue(mbHigh - 1); // pic_height_in_map_units_minus1
  w.u(1, 1); // frame_mbs_only_flag
  w.u(1, 1); // direct_8x8_inference_flag
  // 4:2:0 crops in units of two pixels each way.
  const cropRight = (mbWide * 16 - width) / 2;
  const cropBottom = (mbHigh * 16 - height) / 2;
  const cropping = cropRight > 0 || cropBottom > 0;
  w.u(1, cropping ? 1 : 0);
  if (cropping) {
    w.ue(0);
    w.ue(cropRight);
    w.ue(0);
    w.ue(cropBottom);
  }
  w.u(1, 1); // vui_parameters_present_flag
  w.u(1, 0); // aspect_ratio_info_present_flag
  w.u(1, 0); // overscan_info_present_flag
  w.u(1, 0); // video_signal_type_present_flag
  w.u(1, 0); // chroma_loc_info_present_flag
  w.u(1, 1); // timing_info_present_flag
  w.u(32, 1); // num_units_in_tick
  w.u(32, 2 * fps); // time_scale
  w.u(1, 1); // fixed_frame_rate_flag
  w.u(1, 0); // nal_hrd_parameters_present_flag
  w.u(1, 0); // vcl_hrd_parameters_present_flag
  w.u(1, 0); // pic_struct_present_flag
  w.u(1, 0); // bitstream_restriction_flag
  return Buffer.concat([Buffer.from([0x67]), escapeRbsp(w.finish())]);
}

export function pictureParameterSet(): Buffer {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.u(1, 1); // entropy_coding_mode_flag (CABAC)
  w.u(1, 0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.u(1, 0); // weighted_pred_flag
  w.u(2, 0); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.u(1, 1); // deblocking_filter_control_present_flag
  w.u(1, 0); // constrained_intra_pred_flag
  w.u(1, 0); // redundant_pic_cnt_present_flag
  return Buffer.concat([Buffer.from([0x68]), escapeRbsp(w.finish())]);
}

/** The session description DESCRIBE answers with: one H.264 video track. */
export function describeSdp(o: {
  channel: number;
  width: number;
  height: number;
  fps: number;
  serverAddress: string;
  hints: boolean;
}): string {
  const sps = sequenceParameterSet(o.width, o.height, o.fps);
  const pps = pictureParameterSet();
  const profileLevelId = sps.subarray(1, 4).toString("hex").toUpperCase();
  const ipv6 = o.serverAddress.includes(":");
  const lines = [
    "v=0",
    `o=- ${1000 + o.channel} 1 IN ${ipv6 ? "IP6" : "IP4"} ${o.serverAddress}`,
    `s=Channel ${o.channel}`,
    "i=Camera simulator main stream",
    "t=0 0",
    "a=tool:Glide camera simulator",
    "a=type:broadcast",
    "a=control:*",
    "a=range:npt=now-",
    "m=video 0 RTP/AVP 96",
    `c=IN ${ipv6 ? "IP6 ::" : "IP4 0.0.0.0"}`,
    "b=AS:4096",
    "a=rtpmap:96 H264/90000",
    `a=fmtp:96 packetization-mode=1;profile-level-id=${profileLevelId};sprop-parameter-sets=${sps.toString("base64")},${pps.toString("base64")}`,
    ...(o.hints ? [`a=framerate:${o.fps}`, `a=x-dimensions:${o.width},${o.height}`] : []),
    "a=control:trackID=1",
  ];
  return `${lines.join("\r\n")}\r\n`;
}
