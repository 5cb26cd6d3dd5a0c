import { ONVIF_PATHS, type OnvifRequest, ok, type SoapAnswer } from "./onvif-common.ts";
import { deviceNow } from "./state.ts";
import { escapeXml } from "./xml.ts";

/** The device management service: clock, identity, and where the other services are. */

export const DEVICE_INFORMATION = {
  manufacturer: "Glide",
  firmware: "1.4.0",
  hardware: "GCS-1",
};

export const deviceModel = (channels: number) => `Camera Simulator ${channels}ch`;

const xaddr = (r: OnvifRequest, path: string) => escapeXml(`http://${r.host}${path}`);

function dateTime(ms: number): string {
  const d = new Date(ms);
  return (
    `<tt:Time><tt:Hour>${d.getUTCHours()}</tt:Hour><tt:Minute>${d.getUTCMinutes()}</tt:Minute>` +
    `<tt:Second>${d.getUTCSeconds()}</tt:Second></tt:Time>` +
    `<tt:Date><tt:Year>${d.getUTCFullYear()}</tt:Year><tt:Month>${d.getUTCMonth() + 1}</tt:Month>` +
    `<tt:Day>${d.getUTCDate()}</tt:Day></tt:Date>`
  );
}

function services(r: OnvifRequest): string {
  const service = (namespace: string, path: string, major: number, minor: number) =>
    `<tds:Service><tds:Namespace>${namespace}</tds:Namespace><tds:XAddr>${xaddr(r, path)}</tds:XAddr>` +
    `<tds:Version><tt:Major>${major}</tt:Major><tt:Minor>${minor}</tt:Minor></tds:Version></tds:Service>`;
  return (
    service("http://www.onvif.org/ver10/device/wsdl", ONVIF_PATHS.device, 2, 60) +
    service("http://www.onvif.org/ver10/media/wsdl", ONVIF_PATHS.media, 2, 60) +
    (r.state.channels.some((c) => c.spec.ptz)
      ? service("http://www.onvif.org/ver20/ptz/wsdl", ONVIF_PATHS.ptz, 2, 60)
      : "")
  );
}

function capabilities(r: OnvifRequest): string {
  const ptz = r.state.channels.some((c) => c.spec.ptz);
  return (
    `<tds:Capabilities>` +
    `<tt:Device><tt:XAddr>${xaddr(r, ONVIF_PATHS.device)}</tt:XAddr></tt:Device>` +
    `<tt:Media><tt:XAddr>${xaddr(r, ONVIF_PATHS.media)}</tt:XAddr><tt:StreamingCapabilities>` +
    `<tt:RTPMulticast>false</tt:RTPMulticast><tt:RTP_TCP>true</tt:RTP_TCP><tt:RTP_RTSP_TCP>true</tt:RTP_RTSP_TCP>` +
    `</tt:StreamingCapabilities></tt:Media>` +
    (ptz ? `<tt:PTZ><tt:XAddr>${xaddr(r, ONVIF_PATHS.ptz)}</tt:XAddr></tt:PTZ>` : "") +
    `</tds:Capabilities>`
  );
}

export function deviceAnswer(r: OnvifRequest): SoapAnswer | null {
  const { state } = r;
  switch (r.operation) {
    case "GetSystemDateAndTime": {
      const now = deviceNow(state);
      // A clock set by hand drifts; one on NTP does not.
      const type = state.fault === "wrong_clock" ? "Manual" : "NTP";
      return ok(
        `<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>${type}</tt:DateTimeType>` +
          `<tt:DaylightSavings>false</tt:DaylightSavings><tt:TimeZone><tt:TZ>UTC0</tt:TZ></tt:TimeZone>` +
          `<tt:UTCDateTime>${dateTime(now)}</tt:UTCDateTime><tt:LocalDateTime>${dateTime(now)}</tt:LocalDateTime>` +
          `</tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>`,
      );
    }
    case "GetDeviceInformation":
      return ok(
        `<tds:GetDeviceInformationResponse><tds:Manufacturer>${DEVICE_INFORMATION.manufacturer}</tds:Manufacturer>` +
          `<tds:Model>${escapeXml(deviceModel(state.channels.length))}</tds:Model>` +
          `<tds:FirmwareVersion>${DEVICE_INFORMATION.firmware}</tds:FirmwareVersion>` +
          `<tds:SerialNumber>SIM-${state.brand.toUpperCase()}-${state.channels.length}</tds:SerialNumber>` +
          `<tds:HardwareId>${DEVICE_INFORMATION.hardware}</tds:HardwareId></tds:GetDeviceInformationResponse>`,
      );
    case "GetServices":
      return ok(`<tds:GetServicesResponse>${services(r)}</tds:GetServicesResponse>`);
    case "GetCapabilities":
      return ok(`<tds:GetCapabilitiesResponse>${capabilities(r)}</tds:GetCapabilitiesResponse>`);
    case "GetServiceCapabilities":
      return ok(
        `<tds:GetServiceCapabilitiesResponse><tds:Capabilities><tds:Network IPFilter="false" ZeroConfiguration="false"/>` +
          `<tds:Security UsernameToken="true" HttpDigest="false"/><tds:System DiscoveryResolve="false"/>` +
          `</tds:Capabilities></tds:GetServiceCapabilitiesResponse>`,
      );
    case "GetHostname":
      return ok(
        `<tds:GetHostnameResponse><tds:HostnameInformation><tt:FromDHCP>false</tt:FromDHCP>` +
          `<tt:Name>camera-simulator</tt:Name></tds:HostnameInformation></tds:GetHostnameResponse>`,
      );
    case "GetScopes": {
      const scope = (item: string) =>
        `<tds:Scopes><tt:ScopeDef>Fixed</tt:ScopeDef><tt:ScopeItem>${escapeXml(item)}</tt:ScopeItem></tds:Scopes>`;
      return ok(
        `<tds:GetScopesResponse>${scope("onvif://www.onvif.org/type/video_encoder")}` +
          `${scope("onvif://www.onvif.org/Profile/Streaming")}${scope("onvif://www.onvif.org/name/CameraSimulator")}` +
          `${scope(`onvif://www.onvif.org/hardware/${DEVICE_INFORMATION.hardware}`)}</tds:GetScopesResponse>`,
      );
    }
    default:
      return null;
  }
}
