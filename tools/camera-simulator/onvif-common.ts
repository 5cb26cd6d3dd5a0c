import type { Channel } from "./channels.ts";
import type { SimState } from "./state.ts";
import { textOf } from "./xml.ts";

/** SOAP 1.2 envelopes and ONVIF faults, shared by the three services. */

export const ONVIF_PATHS = {
  device: "/onvif/device_service",
  media: "/onvif/media_service",
  ptz: "/onvif/ptz_service",
} as const;
export type OnvifService = keyof typeof ONVIF_PATHS;

export const NAMESPACES =
  'xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:ter="http://www.onvif.org/ver10/error" ' +
  'xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" ' +
  'xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:tt="http://www.onvif.org/ver10/schema"';

export type SoapAnswer = { status: number; xml: string };
export type OnvifRequest = {
  service: OnvifService;
  operation: string;
  envelope: string;
  /** The address the client used (Host header, and its name alone), for the addresses the answers give out. */
  host: string;
  hostname: string;
  state: SimState;
};

export const envelope = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<env:Envelope ${NAMESPACES}><env:Body>${body}</env:Body></env:Envelope>`;

/** A SOAP fault with ONVIF's two-level code, e.g. ("Sender", "ter:InvalidArgVal", "ter:NoProfile"). */
export function fault(status: number, code: "Sender" | "Receiver", subcodes: string[], reason: string): SoapAnswer {
  const nest = (codes: string[]): string =>
    codes.length === 0 ? "" : `<env:Subcode><env:Value>${codes[0]}</env:Value>${nest(codes.slice(1))}</env:Subcode>`;
  return {
    status,
    xml: envelope(
      `<env:Fault><env:Code><env:Value>env:${code}</env:Value>${nest(subcodes)}</env:Code>` +
        `<env:Reason><env:Text xml:lang="en">${reason}</env:Text></env:Reason></env:Fault>`,
    ),
  };
}

export const ok = (body: string): SoapAnswer => ({ status: 200, xml: envelope(body) });

export const notSupported = (operation: string) =>
  fault(400, "Receiver", ["ter:ActionNotSupported"], `${operation} is not supported by this service`);

export const profileToken = (channel: number) => `Profile_${channel}`;

/** The channel a ProfileToken names, or a fault for a token the device does not have. */
export function channelForProfile(r: OnvifRequest): Channel | SoapAnswer {
  const token = textOf(r.envelope, "ProfileToken");
  const match = token ? /^Profile_(\d+)$/.exec(token) : null;
  const channel = match ? r.state.channels[Number(match[1]) - 1] : undefined;
  return channel ?? fault(400, "Sender", ["ter:InvalidArgVal", "ter:NoProfile"], "The profile token does not exist");
}
