import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.ts";
import {
  challenging,
  type Listener,
  onvifAnswer,
  startHttpListener,
  startRtspListener,
} from "../../test/recording-listener.ts";
import { CameraNetworks, literalAddress, parseCidr } from "./camera-networks.ts";
import { streamInfo, testConnection } from "./index.ts";

/**
 * Where cameras may be reached: the addresses that never are a camera's,
 * the configured networks with their edges, loopback only when asked for,
 * and the same rule when a host name is looked up at connect time.
 */

const PRIVATE = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"];
const LOOPBACK = ["127.0.0.0/8", "::1/128"];
const byDefault = new CameraNetworks(PRIVATE);
const withDevTools = new CameraNetworks([...PRIVATE, ...LOOPBACK]);
const everywhere = new CameraNetworks(["0.0.0.0/0", "::/0"]);

/** Each address with "allowed" or the reason it is refused. */
function verdicts(networks: CameraNetworks, ips: string[]) {
  return Object.fromEntries(
    ips.map((ip) => {
      const verdict = networks.judge(ip);
      return [ip, verdict.allowed ? "allowed" : verdict.reason];
    }),
  );
}

describe("addresses that are never a camera's", () => {
  it("are refused even when CAMERA_NETWORKS is everything, at both edges of each range", () => {
    expect(
      verdicts(everywhere, [
        "169.254.0.0",
        "169.254.169.254",
        "169.254.255.255",
        "fe80::1",
        "febf:ffff::1",
        "224.0.0.1",
        "239.255.255.255",
        "ff02::1",
        "0.0.0.0",
        "::",
        "255.255.255.255",
        "::ffff:169.254.169.254",
        "fe80::1%eth0",
      ]),
    ).toEqual({
      "169.254.0.0": "link-local",
      "169.254.169.254": "link-local",
      "169.254.255.255": "link-local",
      "fe80::1": "link-local",
      "febf:ffff::1": "link-local",
      "224.0.0.1": "multicast",
      "239.255.255.255": "multicast",
      "ff02::1": "multicast",
      "0.0.0.0": "unspecified",
      "::": "unspecified",
      "255.255.255.255": "broadcast",
      "::ffff:169.254.169.254": "link-local",
      "fe80::1%eth0": "not an address",
    });
    // Just outside each of them, the wide network lets them through.
    expect(verdicts(everywhere, ["169.253.255.255", "169.255.0.0", "fec0::1", "223.255.255.255", "8.8.8.8"])).toEqual({
      "169.253.255.255": "allowed",
      "169.255.0.0": "allowed",
      "fec0::1": "allowed",
      "223.255.255.255": "allowed",
      "8.8.8.8": "allowed",
    });
  });
});

describe("the configured networks", () => {
  it("by default are the private ranges, to their last address and not one further", () => {
    expect(
      verdicts(byDefault, [
        "10.0.0.1",
        "10.255.255.255",
        "11.0.0.1",
        "9.255.255.255",
        "172.16.0.0",
        "172.31.255.255",
        "172.15.255.255",
        "172.32.0.0",
        "192.168.0.1",
        "192.169.0.1",
        "fc00::1",
        "fdff:ffff::1",
        "fe00::1",
        "2001:db8::1",
      ]),
    ).toEqual({
      "10.0.0.1": "allowed",
      "10.255.255.255": "allowed",
      "11.0.0.1": "outside",
      "9.255.255.255": "outside",
      "172.16.0.0": "allowed",
      "172.31.255.255": "allowed",
      "172.15.255.255": "outside",
      "172.32.0.0": "outside",
      "192.168.0.1": "allowed",
      "192.169.0.1": "outside",
      "fc00::1": "allowed",
      "fdff:ffff::1": "allowed",
      "fe00::1": "outside",
      "2001:db8::1": "outside",
    });
  });

  it("hold loopback out unless a loopback network is named, as DEV_TOOLS does; 0.0.0.0/0 does not open it", () => {
    const loopback = ["127.0.0.1", "127.255.255.255", "::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::127.0.0.1"];
    const refused = Object.fromEntries(loopback.map((ip) => [ip, "loopback"]));
    expect(verdicts(byDefault, loopback)).toEqual(refused);
    expect(verdicts(everywhere, loopback)).toEqual(refused);
    expect(verdicts(withDevTools, loopback)).toEqual(Object.fromEntries(loopback.map((ip) => [ip, "allowed"])));
    // Loopback allowed does not allow link-local.
    expect(withDevTools.judge("169.254.1.1")).toEqual({ allowed: false, reason: "link-local" });
    // One loopback address named is that address only.
    expect(verdicts(new CameraNetworks(["127.0.0.1/32"]), ["127.0.0.1", "127.0.0.2", "::1"])).toEqual({
      "127.0.0.1": "allowed",
      "127.0.0.2": "loopback",
      "::1": "loopback",
    });
  });

  it("judge an IPv4-mapped IPv6 address as the IPv4 address it carries", () => {
    expect(verdicts(byDefault, ["::ffff:10.0.0.1", "::ffff:a00:1", "::ffff:11.0.0.1"])).toEqual({
      "::ffff:10.0.0.1": "allowed",
      "::ffff:a00:1": "allowed",
      "::ffff:11.0.0.1": "outside",
    });
    // An IPv4 network does not reach into IPv6, nor an IPv6 network into IPv4.
    expect(new CameraNetworks(["::/0"]).judge("10.0.0.1")).toEqual({ allowed: false, reason: "outside" });
    expect(new CameraNetworks(["0.0.0.0/0"]).judge("fd00::1")).toEqual({ allowed: false, reason: "outside" });
  });

  it("are CIDRs, or single addresses", () => {
    expect(parseCidr(" 10.0.0.0/8 ")).toEqual({ address: "10.0.0.0", prefix: 8, family: "ipv4" });
    expect(parseCidr("10.1.2.3")).toEqual({ address: "10.1.2.3", prefix: 32, family: "ipv4" });
    expect(parseCidr("FC00::/7")).toEqual({ address: "fc00::", prefix: 7, family: "ipv6" });
    expect(parseCidr("::ffff:10.0.0.0/104")).toEqual({ address: "10.0.0.0", prefix: 8, family: "ipv4" });
    for (const bad of ["10.0.0/8", "10.0.0.0/33", "fc00::/129", "10.0.0.0/", "10.0.0.0/8/8", "kamera.local/8", ""]) {
      expect(parseCidr(bad), bad).toBeNull();
    }
  });
});

describe("a host that names its address", () => {
  it("is read as a resolver would, without asking DNS", () => {
    expect(
      ["127.1", "2130706433", "0x7f.1", "localhost", "Kamera.LOCALHOST", "localhost.", "[::1]", " 10.0.0.1 "].map(
        literalAddress,
      ),
    ).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1", "::1", "10.0.0.1"]);
    expect(literalAddress("kamera.butik.local")).toBeNull();
  });
});

describe("CAMERA_NETWORKS in the configuration", () => {
  const load = (env: Record<string, string> = {}) =>
    loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "glide-camera-networks-")), ...env });

  it("is the private ranges by default, with loopback only when DEV_TOOLS is on", () => {
    expect(load().cameraNetworks).toEqual(PRIVATE);
    expect(load({ CAMERA_NETWORKS: "" }).cameraNetworks).toEqual(PRIVATE);
    expect(load({ DEV_TOOLS: "true" }).cameraNetworks).toEqual([...PRIVATE, ...LOOPBACK]);
    expect(load({ CAMERA_NETWORKS: "10.1.0.0/16, 192.168.5.7" }).cameraNetworks).toEqual([
      "10.1.0.0/16",
      "192.168.5.7/32",
    ]);
  });

  it("stops the start with a message naming it and the network it cannot read", () => {
    for (const bad of ["10.0.0.0/33", "10.0.0.0/8,,fc00::/7", "kameror", "10.0.0/8"]) {
      expect(() => load({ CAMERA_NETWORKS: bad }), bad).toThrowError(ConfigError);
      expect(() => load({ CAMERA_NETWORKS: bad }), bad).toThrowError(/CAMERA_NETWORKS: ".*" is not a network/);
    }
  });
});

describe("at connect time", () => {
  let web: Listener;
  let onvif: Listener;
  let rtsp: Listener;
  beforeAll(async () => {
    [web, onvif, rtsp] = await Promise.all([
      startHttpListener(challenging("basic")),
      startHttpListener(onvifAnswer),
      startRtspListener(challenging("basic")),
    ]);
  });
  afterAll(() => Promise.all([web.close(), onvif.close(), rtsp.close()]));

  const system = (connection_type: string, port: number, host = "localhost") => ({
    connection_type,
    brand: "generic",
    host,
    port,
    username: "admin",
    password: "Never-to-a-stranger-1",
    api_endpoint: "/snapshot.jpg",
  });

  it("a host name that leads to a forbidden address is refused at the address step, and nothing is sent there", async () => {
    for (const [type, listener] of [
      ["http", web],
      ["onvif", onvif],
      ["rtsp", rtsp],
    ] as const) {
      const result = await testConnection(system(type, listener.port), { networks: byDefault });
      expect(result, type).toMatchObject({ status: "failed", step: "address" });
      expect(result.message).toBe(
        'The host name "localhost" leads to an address cameras may not be reached at (CAMERA_NETWORKS). Use the camera\'s own address.',
      );
      expect(listener.connections, type).toBe(0);
    }
    // The same for a camera's own stream address, as the health checker probes it.
    const stream = streamInfo(system("rtsp", rtsp.port), 1, {
      networks: byDefault,
      streamPath: `rtsp://localhost:${rtsp.port}/live`,
    });
    await expect(stream).rejects.toMatchObject({ failure: "address_not_allowed", status: 409 });
    expect(rtsp.connections).toBe(0);
  });

  it("an address given as IPv4-mapped IPv6 is the IPv4 address: refused without loopback, reached with it", async () => {
    const mapped = system("http", web.port, "::ffff:127.0.0.1");
    const refused = await testConnection(mapped, { networks: byDefault });
    expect(refused).toMatchObject({ status: "failed", step: "address" });
    expect(refused.message).toContain("::ffff:127.0.0.1 is this server itself (loopback)");
    expect(web.connections).toBe(0);
    const reached = await testConnection(mapped, { networks: withDevTools });
    expect(reached).toMatchObject({ status: "failed", step: "path" });
    expect(web.connections).toBeGreaterThan(0);
  });
});
