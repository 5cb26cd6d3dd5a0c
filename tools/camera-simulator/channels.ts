/**
 * The simulated cameras: one per channel, each with a resolution and frame
 * rate, and, when it can pan, tilt and zoom, a position that moves with the
 * velocity of the last ContinuousMove until a Stop, a zero velocity or the
 * move's Timeout. Pan and tilt run from -1 to 1 and zoom from 0 to 1; a
 * velocity of 1 crosses half the pan range per second (PAN_TILT_PER_S).
 * Every PTZ command is logged so tests can see what reached the camera.
 */

export const PAN_TILT_PER_S = 1;
export const ZOOM_PER_S = 0.5;

export type Position = { pan: number; tilt: number; zoom: number };
export type Preset = { token: string; name: string; position: Position };
export type ChannelSpec = { width: number; height: number; fps: number; ptz: boolean; presets: Preset[] };

export type PtzCommand = {
  channel: number;
  op: "ContinuousMove" | "Stop" | "GotoPreset" | "SetPreset" | "RemovePreset";
  /** ContinuousMove: the axes sent; an axis left out keeps its motion. */
  velocity?: { x?: number; y?: number; zoom?: number };
  /** ContinuousMove: the Timeout asked for, in ms. */
  timeoutMs?: number | null;
  /** Stop: which axes were stopped. */
  panTilt?: boolean;
  zoom?: boolean;
  /** GotoPreset, SetPreset, RemovePreset: the preset token. */
  preset?: string;
  at: number;
};

const home = (): Position => ({ pan: 0, tilt: 0, zoom: 0 });
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Four channels as a small store would have them: two PTZ domes with presets, a PTZ without, a fixed camera. */
export function defaultChannels(count: number): ChannelSpec[] {
  const specs: ChannelSpec[] = [
    {
      width: 1920,
      height: 1080,
      fps: 25,
      ptz: true,
      presets: [
        { token: "1", name: "Entrance", position: { pan: -0.5, tilt: 0.1, zoom: 0 } },
        { token: "2", name: "Checkout", position: { pan: 0.4, tilt: -0.2, zoom: 0.3 } },
        { token: "3", name: "Storage door", position: { pan: 0.9, tilt: 0, zoom: 0.6 } },
      ],
    },
    {
      width: 1280,
      height: 720,
      fps: 30,
      ptz: true,
      presets: [
        { token: "shelves", name: "Shelves", position: { pan: -0.2, tilt: -0.1, zoom: 0.2 } },
        { token: "aisle", name: "Aisle", position: { pan: 0.3, tilt: 0, zoom: 0 } },
      ],
    },
    { width: 2560, height: 1440, fps: 20, ptz: true, presets: [] },
    { width: 1920, height: 1080, fps: 15, ptz: false, presets: [] },
  ];
  return Array.from({ length: count }, (_, i) => structuredClone(specs[i % specs.length]!));
}

export class Channel {
  readonly number: number;
  readonly spec: ChannelSpec;
  private at: Position = home();
  private velocity = { x: 0, y: 0, zoom: 0 };
  /** When the current motion started being counted, and when its Timeout ends it. */
  private since = 0;
  private until: number | null = null;

  constructor(number: number, spec: ChannelSpec) {
    this.number = number;
    this.spec = spec;
  }

  /** Brings the position up to `now` and ends a motion whose Timeout has passed. */
  private settle(now: number) {
    const end = this.until === null ? now : Math.min(now, this.until);
    const seconds = Math.max(0, end - this.since) / 1000;
    this.at = {
      pan: clamp(this.at.pan + this.velocity.x * PAN_TILT_PER_S * seconds, -1, 1),
      tilt: clamp(this.at.tilt + this.velocity.y * PAN_TILT_PER_S * seconds, -1, 1),
      zoom: clamp(this.at.zoom + this.velocity.zoom * ZOOM_PER_S * seconds, 0, 1),
    };
    this.since = now;
    if (this.until !== null && now >= this.until) {
      this.velocity = { x: 0, y: 0, zoom: 0 };
      this.until = null;
    }
  }

  position(now: number): Position {
    this.settle(now);
    return { ...this.at };
  }

  moving(now: number): { panTilt: boolean; zoom: boolean } {
    this.settle(now);
    return { panTilt: this.velocity.x !== 0 || this.velocity.y !== 0, zoom: this.velocity.zoom !== 0 };
  }

  continuousMove(v: { x?: number; y?: number; zoom?: number }, timeoutMs: number | null, now: number) {
    this.settle(now);
    const within = (n: number) => clamp(n, -1, 1);
    if (v.x !== undefined) this.velocity.x = within(v.x);
    if (v.y !== undefined) this.velocity.y = within(v.y);
    if (v.zoom !== undefined) this.velocity.zoom = within(v.zoom);
    this.until = timeoutMs === null ? null : now + timeoutMs;
  }

  stop(panTilt: boolean, zoom: boolean, now: number) {
    this.settle(now);
    if (panTilt) this.velocity = { ...this.velocity, x: 0, y: 0 };
    if (zoom) this.velocity = { ...this.velocity, zoom: 0 };
  }

  /** Presets are reached at once; the simulator has no travel time for them. */
  gotoPreset(token: string, now: number): boolean {
    const preset = this.spec.presets.find((p) => p.token === token);
    if (!preset) return false;
    this.settle(now);
    this.velocity = { x: 0, y: 0, zoom: 0 };
    this.until = null;
    this.at = { ...preset.position };
    return true;
  }

  setPreset(name: string | null, token: string | null, now: number): string | null {
    const position = this.position(now);
    if (token !== null) {
      const preset = this.spec.presets.find((p) => p.token === token);
      if (!preset) return null;
      preset.position = position;
      if (name) preset.name = name;
      return token;
    }
    const numeric = this.spec.presets.every((p) => /^\d+$/.test(p.token));
    const taken = new Set(this.spec.presets.map((p) => p.token));
    let n = this.spec.presets.length + 1;
    while (taken.has(numeric ? String(n) : `preset${n}`)) n++;
    const created = numeric ? String(n) : `preset${n}`;
    this.spec.presets.push({ token: created, name: name || `Preset ${n}`, position });
    return created;
  }

  removePreset(token: string): boolean {
    const i = this.spec.presets.findIndex((p) => p.token === token);
    if (i < 0) return false;
    this.spec.presets.splice(i, 1);
    return true;
  }
}
