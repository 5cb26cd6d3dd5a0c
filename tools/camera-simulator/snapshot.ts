import jpeg from "jpeg-js";
import type { Position } from "./channels.ts";
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphPixel } from "./font.ts";

/**
 * A camera picture: a drawn store wall (shelves of coloured goods over a
 * tiled floor) seen through the channel's pan, tilt and zoom, so the picture
 * moves when the camera does, with the channel, the position and the
 * device's time written over it. Encoded as a baseline JPEG.
 */

export const PICTURE_WIDTH = 640;
const TEXT_SCALE = 2;

type Rgb = [number, number, number];

function hueToRgb(hue: number, saturation: number, light: number): Rgb {
  const f = (n: number) => {
    const k = (n + hue * 12) % 12;
    const a = saturation * Math.min(light, 1 - light);
    return Math.round(255 * (light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** The colour of the scene at world point (u, v): u runs left to right, v bottom to top. */
function scene(u: number, v: number, channel: number): Rgb {
  if (v < -0.35) {
    const tile = (Math.floor(u * 8) + Math.floor(v * 8)) & 1;
    return tile ? [120, 116, 108] : [150, 146, 138];
  }
  const bay = u / 0.3 - Math.floor(u / 0.3);
  if (v < 0.25 && bay < 0.72) {
    const shelf = (v + 0.35) / 0.12;
    if (shelf - Math.floor(shelf) < 0.12) return [70, 60, 52];
    const item = Math.floor(u * 22) * 7 + Math.floor(shelf) * 3 + channel;
    const gap = u * 22 - Math.floor(u * 22) < 0.1;
    return gap ? [40, 36, 34] : hueToRgb((item * 0.137) % 1, 0.55, 0.5);
  }
  const shade = Math.round(200 + 30 * Math.max(-1, Math.min(1, v)));
  return [shade, shade - 8, shade - 20];
}

function drawText(rgba: Buffer, width: number, text: string, x0: number, y0: number) {
  const advance = (GLYPH_WIDTH + 1) * TEXT_SCALE;
  const boxW = text.length * advance + 2 * TEXT_SCALE;
  const boxH = (GLYPH_HEIGHT + 2) * TEXT_SCALE;
  const height = rgba.length / 4 / width;
  for (let y = y0; y < Math.min(height, y0 + boxH); y++) {
    for (let x = x0; x < Math.min(width, x0 + boxW); x++) {
      const i = (y * width + x) * 4;
      const gx = Math.floor((x - x0 - TEXT_SCALE) / TEXT_SCALE);
      const gy = Math.floor((y - y0 - TEXT_SCALE) / TEXT_SCALE);
      const char = text[Math.floor(gx / (GLYPH_WIDTH + 1))] ?? " ";
      const on = gx >= 0 && gy >= 0 && glyphPixel(char, gx % (GLYPH_WIDTH + 1), gy);
      for (let k = 0; k < 3; k++) rgba[i + k] = on ? 255 : Math.round(rgba[i + k]! * 0.35);
    }
  }
}

const sign = (v: number) => (v < 0 ? "-" : "+") + Math.abs(v).toFixed(2);

export function renderPicture(o: {
  channel: number;
  streamWidth: number;
  streamHeight: number;
  fps: number;
  ptz: boolean;
  position: Position;
  deviceTime: number;
}): Buffer {
  const width = PICTURE_WIDTH;
  const height = Math.round((width * o.streamHeight) / o.streamWidth / 2) * 2;
  const rgba = Buffer.alloc(width * height * 4);
  const { pan, tilt, zoom } = o.position;
  const view = 0.9 / (1 + 3 * zoom);
  for (let y = 0; y < height; y++) {
    const v = tilt * 0.8 + (0.5 - y / height) * view * (height / width);
    for (let x = 0; x < width; x++) {
      const u = pan * 1.5 + (x / width - 0.5) * view;
      const [r, g, b] = scene(u, v, o.channel);
      const i = (y * width + x) * 4;
      rgba[i] = r;
      rgba[i + 1] = g;
      rgba[i + 2] = b;
      rgba[i + 3] = 255;
    }
  }
  const line = (GLYPH_HEIGHT + 4) * TEXT_SCALE;
  const time = new Date(o.deviceTime).toISOString().slice(0, 19).replace("T", " ");
  drawText(rgba, width, `CH ${o.channel}  ${o.streamWidth}X${o.streamHeight} ${o.fps} FPS`, 8, 8);
  drawText(rgba, width, `${time} UTC`, 8, 8 + line);
  const where = o.ptz ? `PAN ${sign(pan)} TILT ${sign(tilt)} ZOOM ${zoom.toFixed(2)}` : "FIXED CAMERA, NO PTZ";
  drawText(rgba, width, where, 8, height - line);
  return jpeg.encode({ data: rgba, width, height }, 75).data;
}
