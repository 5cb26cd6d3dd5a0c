import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import onvif, { type Cam, type CamProfile, type DeviceInformation } from "onvif";
import type { Deadline } from "./deadline.ts";
import { at, CameraError, networkFailure, type Where } from "./errors.ts";

/**
 * A conversation with an ONVIF device through the `onvif` package, step by
 * step so that each failure names its step: the device's clock first
 * (unsigned GetSystemDateAndTime; the package then signs every WS-Security
 * token with the device's time, so a device whose clock is off still
 * accepts us), then its services, its identity (the first call that must be
 * signed), and its media profiles: one channel per video source.
 */

export type OnvifChannel = {
  profileToken: string;
  width: number | null;
  height: number | null;
  fps: number | null;
  ptz: boolean;
};

export type OnvifSession = {
  cam: Cam;
  /** The device's clock minus ours, as read at the start (to the second). */
  clockSkewMs: number;
  channels: OnvifChannel[];
  info: DeviceInformation | null;
  /** Runs one call of the package under the deadline. */
  call: <T>(where: Where, run: (done: (err: Error | null, data?: T, xml?: string) => void) => void) => Promise<T>;
};

export type OnvifTarget = {
  /** The IP address the system's host was checked to have: every request of the conversation goes there. */
  address: string;
  port: number;
  path: string;
  username: string | null;
  password: string | null;
};

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The first profile of each video source, in the device's order: channel 1, 2, … */
export function channelsOf(profiles: CamProfile[]): OnvifChannel[] {
  const seen = new Set<string>();
  const channels: OnvifChannel[] = [];
  for (const p of profiles) {
    const source = String(p.videoSourceConfiguration?.sourceToken ?? p.videoSourceConfiguration?.$?.token ?? "");
    if (seen.has(source)) continue;
    seen.add(source);
    const encoder = p.videoEncoderConfiguration;
    channels.push({
      profileToken: String(p.$?.token ?? p.token ?? ""),
      width: num(encoder?.resolution?.width),
      height: num(encoder?.resolution?.height),
      fps: num(encoder?.rateControl?.frameRateLimit),
      ptz: Boolean(p.PTZConfiguration),
    });
  }
  return channels;
}

/** The reason text and subcodes of a SOAP fault, if the answer was one. */
function faultOf(xml: string | undefined): string {
  if (!xml || !/Fault/i.test(xml)) return "";
  const texts = [...xml.matchAll(/<(?:[\w-]+:)?(?:Text|Value)[^>]*>([^<]*)</g)].map((m) => m[1]!.trim());
  return texts.join(" ");
}

/** A failure of the package, named by what it means for the operator. */
function onvifFailure(err: Error, xml: string | undefined, w: Where): CameraError {
  if ((err as { code?: string }).code || (err as { name?: string }).name === "AbortError")
    return networkFailure(err, w);
  const fault = faultOf(xml);
  const text = `${err.message} ${fault}`;
  if (/Network timeout/i.test(err.message)) return networkFailure({ code: "ETIMEDOUT" }, w);
  if (/NotAuthorized|not authori[sz]ed|Digest authentication failed|Unauthorized/i.test(text)) {
    if (/time check|clock|timestamp|expired/i.test(fault)) {
      return new CameraError(
        "clock_skew",
        "clock",
        `${at(w)} refused the sign-in because its clock differs too much from this server's, and it would not tell its time before sign-in. Set the camera's clock (NTP).`,
      );
    }
    if (w.step === "clock") {
      return new CameraError(
        "wrong_credentials",
        "authenticate",
        `${at(w)} refused the user name or password (it asks for them even to tell its time). If they are right, the camera's clock may be far from this server's: set it (NTP).`,
      );
    }
    return new CameraError(
      "wrong_credentials",
      "authenticate",
      `Wrong user name or password: ${at(w)} refused the sign-in.`,
    );
  }
  if (/Wrong ONVIF SOAP response|Non-whitespace|Unexpected close tag|Invalid character|Unclosed root/i.test(text)) {
    return new CameraError(
      "not_onvif",
      "onvif",
      `${at(w)} answers, but not as an ONVIF device. Check the port (ONVIF is usually on the web port), and that ONVIF is turned on in the camera.`,
    );
  }
  // The fault's own words are not repeated: they are the other side's, whatever it is.
  return new CameraError("bad_answer", w.step, `${at(w)} could not answer while ${w.doing}.`);
}

export async function openOnvif(
  target: OnvifTarget,
  deadline: Deadline,
  base: Omit<Where, "step" | "doing">,
  want: { info: boolean; profiles: boolean },
): Promise<OnvifSession> {
  // Its own agent per conversation: when the deadline comes, every socket it opened goes.
  const agent = new http.Agent({ keepAlive: false });
  deadline.signal.addEventListener("abort", () => agent.destroy(), { once: true });
  // The package sends every request to this hostname and port (only the paths come from the device's
  // service list), so the conversation never leaves the checked address.
  const cam = new onvif.Cam({
    hostname: target.address,
    port: target.port,
    path: target.path,
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
    timeout: Math.max(1, deadline.remainingMs),
    autoconnect: false,
    agent,
  });

  // Without a user and password the package would answer an HTTP Digest challenge as the user "undefined":
  // a stranger at the address would learn that we sign in. It answers none.
  if (!target.username || !target.password) {
    (cam as unknown as { digestAuth: () => never }).digestAuth = () => {
      throw new CameraError(
        "wrong_credentials",
        "authenticate",
        `${at(base)} asks for a user name and password; none is set for this system.`,
      );
    };
  }

  // ONVIF's digest is SHA-1 over nonce, Created and the password as UTF-8; the package encodes the
  // password as ASCII, which breaks any password with å, ä or ö. The same digest, with UTF-8.
  (cam as unknown as { _passwordDigest: () => unknown })._passwordDigest = function (this: {
    timeShift?: number;
    password: string;
  }) {
    const timestamp = new Date(process.uptime() * 1000 + (this.timeShift ?? 0)).toISOString();
    const nonce = randomBytes(16);
    const passdigest = createHash("sha1")
      .update(Buffer.concat([nonce, Buffer.from(timestamp, "utf8"), Buffer.from(this.password, "utf8")]))
      .digest("base64");
    return { passdigest, nonce: nonce.toString("base64"), timestamp };
  };

  const call: OnvifSession["call"] = (where, run) =>
    deadline.race(
      new Promise((resolve, reject) => {
        try {
          run((err, data, xml) => (err ? reject(onvifFailure(err, xml, where)) : resolve(data as never)));
        } catch (err) {
          reject(onvifFailure(err as Error, undefined, where));
        }
      }),
      where,
    );

  // The package dates its tokens `process.uptime() + timeShift` and learns timeShift from the device only
  // when none is set. Unset, a device that wants even GetSystemDateAndTime signed gets tokens dated 1970;
  // so it starts from our own clock, and moves to the device's as soon as the device tells it.
  const uptimeMs = () => process.uptime() * 1000;
  cam.timeShift = Date.now() - uptimeMs();
  const deviceTime = await call<Date>({ ...base, step: "clock", doing: "reading the device's clock" }, (done) =>
    cam.getSystemDateAndTime(done),
  );
  const clockSkewMs = deviceTime instanceof Date ? deviceTime.getTime() - Date.now() : 0;
  if (deviceTime instanceof Date) cam.timeShift = deviceTime.getTime() - uptimeMs();

  const servicesWhere: Where = { ...base, step: "onvif", doing: "asking for the device's services" };
  try {
    await call(servicesWhere, (done) => cam.getServices(true, done));
  } catch (err) {
    if (!(err instanceof CameraError) || err.failure !== "bad_answer") throw err;
    // Devices older than GetServices describe themselves with GetCapabilities.
    await call(servicesWhere, (done) => cam.getCapabilities(done));
  }

  const info = want.info
    ? await call<DeviceInformation>({ ...base, step: "authenticate", doing: "signing in" }, (done) =>
        cam.getDeviceInformation(done),
      )
    : null;

  let channels: OnvifChannel[] = [];
  if (want.profiles) {
    const profiles = await call<CamProfile[]>({ ...base, step: "onvif", doing: "reading the media profiles" }, (done) =>
      cam.getProfiles(done),
    );
    channels = channelsOf(Array.isArray(profiles) ? profiles : []);
  }
  return { cam, clockSkewMs, channels, info, call };
}

/** The profile of channel `n` (from 1), or the error that says how many there are. */
export function channelOf(session: OnvifSession, n: number, w: Pick<Where, "host" | "port">): OnvifChannel {
  const channel = session.channels[n - 1];
  if (!channel?.profileToken) {
    const count = session.channels.length;
    throw new CameraError(
      "no_such_channel",
      "path",
      `${at(w)} has ${count === 1 ? "one channel" : `${count} channels`}; there is no channel ${n}.`,
    );
  }
  return channel;
}
