import { fault, notSupported, type OnvifRequest, type OnvifService, type SoapAnswer } from "./onvif-common.ts";
import { deviceAnswer } from "./onvif-device.ts";
import { mediaAnswer } from "./onvif-media.ts";
import { ptzAnswer } from "./onvif-ptz.ts";
import { deviceNow, remember, type SimState } from "./state.ts";
import type { createTokenChecker } from "./ws-security.ts";
import { soapOperation } from "./xml.ts";

/**
 * The ONVIF side: SOAP 1.2 over HTTP POST, one path per service (device,
 * media, PTZ). Authentication is WS-Security UsernameToken only, so a
 * refused or missing token is answered as a UsernameToken-only device does:
 * HTTP 400 with the SOAP fault env:Sender / ter:NotAuthorized. The
 * operations the specification lets anyone call (GetSystemDateAndTime,
 * GetServices, GetCapabilities…) need no token, but a token that comes with
 * them is checked.
 */

const PRE_AUTH = new Set([
  "GetSystemDateAndTime",
  "GetServices",
  "GetServiceCapabilities",
  "GetCapabilities",
  "GetHostname",
  "GetWsdlUrl",
  "GetEndpointReference",
]);

export function handleSoap(
  service: OnvifService,
  body: string,
  address: { host: string; hostname: string },
  state: SimState,
  checkToken: ReturnType<typeof createTokenChecker>,
): SoapAnswer {
  const operation = soapOperation(body);
  if (!operation) return fault(400, "Sender", ["ter:WellFormed"], "The request is not a SOAP 1.2 envelope");
  remember(state.requests.onvif, operation);

  const signed = /<(?:[\w.-]+:)?UsernameToken[\s>]/.test(body);
  const open = PRE_AUTH.has(operation) && !(operation === "GetSystemDateAndTime" && state.timeNeedsAuth);
  if (signed || !open) {
    const check = checkToken(body, { user: state.user, password: state.password }, deviceNow(state));
    if (!check.ok) {
      state.refusals[check.reason]++;
      // Devices word a refused clock differently from a refused password; both are NotAuthorized.
      const reason =
        check.reason === "clock"
          ? "The security token could not be authenticated: time check failed"
          : "Sender not Authorized";
      return fault(400, "Sender", ["ter:NotAuthorized"], reason);
    }
  }

  const request: OnvifRequest = { service, operation, envelope: body, ...address, state };
  const answer =
    service === "device" ? deviceAnswer(request) : service === "media" ? mediaAnswer(request) : ptzAnswer(request);
  return answer ?? notSupported(operation);
}
