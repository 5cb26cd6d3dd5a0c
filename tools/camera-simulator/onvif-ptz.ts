import type { Channel, Position } from "./channels.ts";
import { channelForProfile, fault, type OnvifRequest, ok, type SoapAnswer } from "./onvif-common.ts";
import { deviceNow, remember } from "./state.ts";
import { elementAttributes, elementText, escapeXml, textOf } from "./xml.ts";

/** The PTZ service: nodes, configurations, ContinuousMove / Stop, status and presets. */

const SPACE = "http://www.onvif.org/ver10/tptz";
const spaces = {
  panTiltPosition: `${SPACE}/PanTiltSpaces/PositionGenericSpace`,
  zoomPosition: `${SPACE}/ZoomSpaces/PositionGenericSpace`,
  panTiltVelocity: `${SPACE}/PanTiltSpaces/VelocityGenericSpace`,
  zoomVelocity: `${SPACE}/ZoomSpaces/VelocityGenericSpace`,
  panTiltSpeed: `${SPACE}/PanTiltSpaces/GenericSpeedSpace`,
  zoomSpeed: `${SPACE}/ZoomSpaces/ZoomGenericSpeedSpace`,
};
const range = (min: number, max: number) => `<tt:Min>${min}</tt:Min><tt:Max>${max}</tt:Max>`;
const panTiltRange = (uri: string) =>
  `<tt:URI>${uri}</tt:URI><tt:XRange>${range(-1, 1)}</tt:XRange><tt:YRange>${range(-1, 1)}</tt:YRange>`;

export function ptzConfiguration(c: Channel, tag: string): string {
  const n = c.number;
  return (
    `<${tag} token="PTZConfig_${n}"><tt:Name>PTZ ${n}</tt:Name><tt:UseCount>1</tt:UseCount>` +
    `<tt:NodeToken>PTZNode_${n}</tt:NodeToken>` +
    `<tt:DefaultContinuousPanTiltVelocitySpace>${spaces.panTiltVelocity}</tt:DefaultContinuousPanTiltVelocitySpace>` +
    `<tt:DefaultContinuousZoomVelocitySpace>${spaces.zoomVelocity}</tt:DefaultContinuousZoomVelocitySpace>` +
    `<tt:DefaultPTZSpeed><tt:PanTilt x="0.5" y="0.5" space="${spaces.panTiltSpeed}"/>` +
    `<tt:Zoom x="0.5" space="${spaces.zoomSpeed}"/></tt:DefaultPTZSpeed>` +
    `<tt:DefaultPTZTimeout>PT5S</tt:DefaultPTZTimeout>` +
    `<tt:PanTiltLimits><tt:Range>${panTiltRange(spaces.panTiltPosition)}</tt:Range></tt:PanTiltLimits>` +
    `<tt:ZoomLimits><tt:Range><tt:URI>${spaces.zoomPosition}</tt:URI><tt:XRange>${range(0, 1)}</tt:XRange>` +
    `</tt:Range></tt:ZoomLimits></${tag}>`
  );
}

function node(c: Channel): string {
  return (
    `<tptz:PTZNode token="PTZNode_${c.number}" FixedHomePosition="false"><tt:Name>PTZ node ${c.number}</tt:Name>` +
    `<tt:SupportedPTZSpaces>` +
    `<tt:AbsolutePanTiltPositionSpace>${panTiltRange(spaces.panTiltPosition)}</tt:AbsolutePanTiltPositionSpace>` +
    `<tt:AbsoluteZoomPositionSpace><tt:URI>${spaces.zoomPosition}</tt:URI><tt:XRange>${range(0, 1)}</tt:XRange>` +
    `</tt:AbsoluteZoomPositionSpace>` +
    `<tt:ContinuousPanTiltVelocitySpace>${panTiltRange(spaces.panTiltVelocity)}</tt:ContinuousPanTiltVelocitySpace>` +
    `<tt:ContinuousZoomVelocitySpace><tt:URI>${spaces.zoomVelocity}</tt:URI><tt:XRange>${range(-1, 1)}</tt:XRange>` +
    `</tt:ContinuousZoomVelocitySpace></tt:SupportedPTZSpaces>` +
    `<tt:MaximumNumberOfPresets>32</tt:MaximumNumberOfPresets><tt:HomeSupported>false</tt:HomeSupported>` +
    `</tptz:PTZNode>`
  );
}

const position = (p: Position) =>
  `<tt:PanTilt x="${round(p.pan)}" y="${round(p.tilt)}" space="${spaces.panTiltPosition}"/>` +
  `<tt:Zoom x="${round(p.zoom)}" space="${spaces.zoomPosition}"/>`;
const round = (v: number) => Math.round(v * 10000) / 10000;

/** xs:duration as ONVIF uses it for timeouts (PT5S, PT0.5S, PT1M), in ms; null if unreadable. */
export function durationMs(text: string): number | null {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text.trim());
  if (!m || text.trim() === "P" || text.trim() === "PT") return null;
  const [, d = "0", h = "0", min = "0", s = "0"] = m;
  return Math.round(((Number(d) * 24 + Number(h)) * 60 + Number(min)) * 60_000 + Number(s) * 1000);
}

/** The PTZ channel a request's ProfileToken names, or the fault a device gives. */
function ptzChannel(r: OnvifRequest): Channel | SoapAnswer {
  const c = channelForProfile(r);
  if ("xml" in c) return c;
  if (!c.spec.ptz) {
    return fault(400, "Sender", ["ter:InvalidArgVal", "ter:NoPTZProfile"], "The profile has no PTZ configuration");
  }
  return c;
}

function axis(v: string | undefined): number | undefined | null {
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= -1 && n <= 1 ? n : null;
}

function continuousMove(r: OnvifRequest, c: Channel, now: number): SoapAnswer {
  const velocity = elementText(r.envelope, "Velocity") ?? "";
  const panTilt = elementAttributes(velocity, "PanTilt");
  const zoom = elementAttributes(velocity, "Zoom");
  const v = { x: axis(panTilt?.x), y: axis(panTilt?.y), zoom: axis(zoom?.x) };
  if (v.x === null || v.y === null || v.zoom === null) {
    return fault(400, "Sender", ["ter:InvalidArgVal", "ter:InvalidVelocity"], "Velocity components are from -1 to 1");
  }
  const timeoutText = textOf(r.envelope, "Timeout");
  const timeoutMs = timeoutText === null ? null : durationMs(timeoutText);
  if (timeoutText !== null && timeoutMs === null) {
    return fault(400, "Sender", ["ter:InvalidArgVal", "ter:TimeoutNotSupported"], "Timeout is not an xs:duration");
  }
  const sent = {
    ...(v.x !== undefined ? { x: v.x } : {}),
    ...(v.y !== undefined ? { y: v.y } : {}),
    ...(v.zoom !== undefined ? { zoom: v.zoom } : {}),
  };
  c.continuousMove(sent, timeoutMs, now);
  remember(r.state.commands, { channel: c.number, op: "ContinuousMove", velocity: sent, timeoutMs, at: Date.now() });
  return ok("<tptz:ContinuousMoveResponse/>");
}

function stop(r: OnvifRequest, c: Channel, now: number): SoapAnswer {
  const inner = elementText(r.envelope, "Stop") ?? "";
  const flag = (name: string) => (textOf(inner, name) ?? "true").toLowerCase() !== "false";
  const [panTilt, zoom] = [flag("PanTilt"), flag("Zoom")];
  c.stop(panTilt, zoom, now);
  remember(r.state.commands, { channel: c.number, op: "Stop", panTilt, zoom, at: Date.now() });
  return ok("<tptz:StopResponse/>");
}

function presetOps(r: OnvifRequest, c: Channel, now: number): SoapAnswer | null {
  const token = textOf(r.envelope, "PresetToken");
  const noToken = () => fault(400, "Sender", ["ter:InvalidArgVal", "ter:NoToken"], "The preset token does not exist");
  switch (r.operation) {
    case "GetPresets":
      return ok(
        `<tptz:GetPresetsResponse>${c.spec.presets
          .map(
            (p) =>
              `<tptz:Preset token="${escapeXml(p.token)}"><tt:Name>${escapeXml(p.name)}</tt:Name>` +
              `<tt:PTZPosition>${position(p.position)}</tt:PTZPosition></tptz:Preset>`,
          )
          .join("")}</tptz:GetPresetsResponse>`,
      );
    case "GotoPreset":
      if (!token || !c.gotoPreset(token, now)) return noToken();
      remember(r.state.commands, { channel: c.number, op: "GotoPreset", preset: token, at: Date.now() });
      return ok("<tptz:GotoPresetResponse/>");
    case "SetPreset": {
      const created = c.setPreset(textOf(r.envelope, "PresetName"), token, now);
      if (created === null) return noToken();
      remember(r.state.commands, { channel: c.number, op: "SetPreset", preset: created, at: Date.now() });
      return ok(
        `<tptz:SetPresetResponse><tptz:PresetToken>${escapeXml(created)}</tptz:PresetToken></tptz:SetPresetResponse>`,
      );
    }
    case "RemovePreset":
      if (!token || !c.removePreset(token)) return noToken();
      remember(r.state.commands, { channel: c.number, op: "RemovePreset", preset: token, at: Date.now() });
      return ok("<tptz:RemovePresetResponse/>");
    default:
      return null;
  }
}

export function ptzAnswer(r: OnvifRequest): SoapAnswer | null {
  const ptzChannels = r.state.channels.filter((c) => c.spec.ptz);
  switch (r.operation) {
    case "GetNodes":
      return ok(`<tptz:GetNodesResponse>${ptzChannels.map(node).join("")}</tptz:GetNodesResponse>`);
    case "GetConfigurations":
      return ok(
        `<tptz:GetConfigurationsResponse>${ptzChannels
          .map((c) => ptzConfiguration(c, "tptz:PTZConfiguration"))
          .join("")}</tptz:GetConfigurationsResponse>`,
      );
    case "GetServiceCapabilities":
      return ok(
        `<tptz:GetServiceCapabilitiesResponse><tptz:Capabilities EFlip="false" Reverse="false" ` +
          `GetCompatibleConfigurations="false" MoveStatus="true" StatusPosition="true"/>` +
          `</tptz:GetServiceCapabilitiesResponse>`,
      );
    case "ContinuousMove":
    case "Stop":
    case "GetStatus":
    case "GetPresets":
    case "GotoPreset":
    case "SetPreset":
    case "RemovePreset":
      break;
    default:
      return null;
  }
  const c = ptzChannel(r);
  if ("xml" in c) return c;
  const now = Date.now();
  if (r.operation === "ContinuousMove") return continuousMove(r, c, now);
  if (r.operation === "Stop") return stop(r, c, now);
  if (r.operation === "GetStatus") {
    const moving = c.moving(now);
    const state = (on: boolean) => (on ? "MOVING" : "IDLE");
    return ok(
      `<tptz:GetStatusResponse><tptz:PTZStatus><tt:Position>${position(c.position(now))}</tt:Position>` +
        `<tt:MoveStatus><tt:PanTilt>${state(moving.panTilt)}</tt:PanTilt><tt:Zoom>${state(moving.zoom)}</tt:Zoom>` +
        `</tt:MoveStatus><tt:UtcTime>${new Date(deviceNow(r.state)).toISOString()}</tt:UtcTime>` +
        `</tptz:PTZStatus></tptz:GetStatusResponse>`,
    );
  }
  return presetOps(r, c, now);
}
