/**
 * Runs the camera simulator on its own:
 *   node tools/camera-simulator/main.ts [--host 127.0.0.1] [--http-port 0] [--rtsp-port 0] [--control-port 0]
 *     [--brand hikvision|dahua|axis|generic] [--user admin] [--password …] [--channels 4] [--http-auth digest|basic]
 *     [--show CHANNEL=FILE.jpg]…
 * A port of 0 takes a free one. Prints the addresses and credentials a
 * camera system needs (CAMERA_SIM_HTTP, CAMERA_SIM_RTSP, CAMERA_SIM_USER,
 * CAMERA_SIM_PASSWORD) and the control API's address (CAMERA_SIM_CONTROL),
 * which answers loopback callers only, e.g.
 *   curl -X POST $CAMERA_SIM_CONTROL -d '{"fault":"slow","delay_ms":8000}'
 *   curl -X PUT $CAMERA_SIM_CONTROL/channels/4/picture --data-binary @face.jpg
 * `--show` puts a JPEG on a channel from the start (the demo shows a face at
 * its entrance and exit, so the face check has someone to see).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { BRANDS, isBrand } from "./brands.ts";
import { startCameraSimulator } from "./simulator.ts";

const { values } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    "http-port": { type: "string", default: "0" },
    "rtsp-port": { type: "string", default: "0" },
    "control-port": { type: "string", default: "0" },
    brand: { type: "string", default: "hikvision" },
    user: { type: "string", default: "admin" },
    password: { type: "string" },
    channels: { type: "string", default: "4" },
    "http-auth": { type: "string", default: "digest" },
    show: { type: "string", multiple: true, default: [] },
  },
});

function fail(message: string): never {
  process.stderr.write(`camera simulator: ${message}\n`);
  process.exit(2);
}
const port = (name: "http-port" | "rtsp-port" | "control-port") => {
  const n = Number(values[name]);
  return Number.isInteger(n) && n >= 0 && n <= 65535 ? n : fail(`--${name} must be a port from 0 to 65535`);
};
if (!isBrand(values.brand)) fail(`--brand must be one of ${BRANDS.join(", ")}`);
const channels = Number(values.channels);
if (!Number.isInteger(channels) || channels < 1 || channels > 64) fail("--channels must be from 1 to 64");
const httpAuth = values["http-auth"];
if (httpAuth !== "digest" && httpAuth !== "basic") fail("--http-auth must be digest or basic");

const simulator = await startCameraSimulator({
  host: values.host,
  httpPort: port("http-port"),
  rtspPort: port("rtsp-port"),
  controlPort: port("control-port"),
  brand: values.brand,
  user: values.user,
  ...(values.password ? { password: values.password } : {}),
  channels,
  httpAuth,
});
for (const show of values.show) {
  const [, channel, file] = /^(\d+)=(.+)$/.exec(show) ?? fail("--show must be CHANNEL=FILE.jpg");
  try {
    simulator.showPicture(Number(channel), readFileSync(file as string));
  } catch (err) {
    fail(`--show ${show}: ${(err as Error).message}`);
  }
}
process.stdout.write(
  [
    `Camera simulator: ${channels} ${values.brand} channels, ONVIF at ${simulator.httpUrl}/onvif/device_service, RTSP at ${simulator.rtspUrl}, control ${simulator.controlUrl}`,
    `  CAMERA_SIM_HTTP=${simulator.httpUrl}`,
    `  CAMERA_SIM_RTSP=${simulator.rtspUrl}`,
    `  CAMERA_SIM_USER=${simulator.user}`,
    `  CAMERA_SIM_PASSWORD=${simulator.password}`,
    `  CAMERA_SIM_CONTROL=${simulator.controlUrl}`,
    "",
  ].join("\n"),
);
const stop = () => simulator.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
