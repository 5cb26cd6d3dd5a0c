import { BRAND_PATHS, fillChannel, ONVIF_SNAPSHOT_PATH } from "./brands.ts";
import type { Channel } from "./channels.ts";
import { channelForProfile, type OnvifRequest, ok, profileToken, type SoapAnswer } from "./onvif-common.ts";
import { ptzConfiguration } from "./onvif-ptz.ts";
import { escapeXml } from "./xml.ts";

/** The media service (Media 1): one profile per channel, stream and snapshot addresses. */

function profile(c: Channel): string {
  const n = c.number;
  const { width, height, fps } = c.spec;
  return (
    `<trt:Profiles token="${profileToken(n)}" fixed="true"><tt:Name>Channel ${n} main stream</tt:Name>` +
    `<tt:VideoSourceConfiguration token="VideoSourceConfig_${n}"><tt:Name>Video source ${n}</tt:Name>` +
    `<tt:UseCount>1</tt:UseCount><tt:SourceToken>VideoSource_${n}</tt:SourceToken>` +
    `<tt:Bounds x="0" y="0" width="${width}" height="${height}"/></tt:VideoSourceConfiguration>` +
    `<tt:VideoEncoderConfiguration token="VideoEncoder_${n}"><tt:Name>Main stream ${n}</tt:Name>` +
    `<tt:UseCount>1</tt:UseCount><tt:Encoding>H264</tt:Encoding>` +
    `<tt:Resolution><tt:Width>${width}</tt:Width><tt:Height>${height}</tt:Height></tt:Resolution>` +
    `<tt:Quality>4</tt:Quality><tt:RateControl><tt:FrameRateLimit>${fps}</tt:FrameRateLimit>` +
    `<tt:EncodingInterval>1</tt:EncodingInterval><tt:BitrateLimit>4096</tt:BitrateLimit></tt:RateControl>` +
    `<tt:H264><tt:GovLength>${fps * 2}</tt:GovLength><tt:H264Profile>High</tt:H264Profile></tt:H264>` +
    `<tt:Multicast><tt:Address><tt:Type>IPv4</tt:Type><tt:IPv4Address>0.0.0.0</tt:IPv4Address></tt:Address>` +
    `<tt:Port>0</tt:Port><tt:TTL>1</tt:TTL><tt:AutoStart>false</tt:AutoStart></tt:Multicast>` +
    `<tt:SessionTimeout>PT60S</tt:SessionTimeout></tt:VideoEncoderConfiguration>` +
    (c.spec.ptz ? ptzConfiguration(c, "tt:PTZConfiguration") : "") +
    `</trt:Profiles>`
  );
}

const mediaUri = (uri: string) =>
  `<trt:MediaUri><tt:Uri>${escapeXml(uri)}</tt:Uri><tt:InvalidAfterConnect>false</tt:InvalidAfterConnect>` +
  `<tt:InvalidAfterReboot>false</tt:InvalidAfterReboot><tt:Timeout>PT0S</tt:Timeout></trt:MediaUri>`;

export function mediaAnswer(r: OnvifRequest): SoapAnswer | null {
  const { state } = r;
  switch (r.operation) {
    case "GetProfiles":
      return ok(`<trt:GetProfilesResponse>${state.channels.map(profile).join("")}</trt:GetProfilesResponse>`);
    case "GetProfile": {
      const c = channelForProfile(r);
      return "xml" in c
        ? c
        : ok(
            `<trt:GetProfileResponse>${profile(c).replaceAll("trt:Profiles", "trt:Profile")}</trt:GetProfileResponse>`,
          );
    }
    case "GetVideoSources":
      return ok(
        `<trt:GetVideoSourcesResponse>${state.channels
          .map(
            (c) =>
              `<trt:VideoSources token="VideoSource_${c.number}"><tt:Framerate>${c.spec.fps}</tt:Framerate>` +
              `<tt:Resolution><tt:Width>${c.spec.width}</tt:Width><tt:Height>${c.spec.height}</tt:Height>` +
              `</tt:Resolution></trt:VideoSources>`,
          )
          .join("")}</trt:GetVideoSourcesResponse>`,
      );
    case "GetStreamUri": {
      const c = channelForProfile(r);
      if ("xml" in c) return c;
      const path = fillChannel(BRAND_PATHS[state.brand].stream, c.number);
      return ok(
        `<trt:GetStreamUriResponse>${mediaUri(`rtsp://${r.hostname}:${state.rtspPort}${path}`)}</trt:GetStreamUriResponse>`,
      );
    }
    case "GetSnapshotUri": {
      const c = channelForProfile(r);
      if ("xml" in c) return c;
      const path = fillChannel(ONVIF_SNAPSHOT_PATH, c.number);
      return ok(`<trt:GetSnapshotUriResponse>${mediaUri(`http://${r.host}${path}`)}</trt:GetSnapshotUriResponse>`);
    }
    case "GetServiceCapabilities":
      return ok(
        `<trt:GetServiceCapabilitiesResponse><trt:Capabilities SnapshotUri="true" Rotation="false">` +
          `<trt:ProfileCapabilities MaximumNumberOfProfiles="${state.channels.length}"/>` +
          `<trt:StreamingCapabilities RTPMulticast="false" RTP_TCP="true" RTP_RTSP_TCP="true"/>` +
          `</trt:Capabilities></trt:GetServiceCapabilitiesResponse>`,
      );
    default:
      return null;
  }
}
