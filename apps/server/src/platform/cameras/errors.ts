import { AppError } from "../errors.ts";

/**
 * What can go wrong talking to a camera, in the order a connection is made.
 * `step` is the stage that failed, in the words of the connection test
 * (contracts `connectionTestSchema`): address (DNS), connect (TCP),
 * authenticate, path (stream or picture address), onvif (the device's
 * answers), clock.
 */
export type ConnectionStep = "address" | "connect" | "authenticate" | "path" | "onvif" | "clock";

export type CameraFailure =
  | "address_not_allowed"
  | "address_not_found"
  | "unreachable"
  | "refused"
  | "timed_out"
  | "connection_lost"
  | "wrong_credentials"
  | "wrong_path"
  | "not_onvif"
  | "not_rtsp"
  | "clock_skew"
  | "no_such_channel"
  | "bad_answer";

const STATUS: Partial<Record<CameraFailure, number>> = { timed_out: 504, address_not_allowed: 409 };

/**
 * The camera could not do what was asked. A 502 (a 504 when it did not
 * answer in time, a 409 when its address is one cameras may not be at) with
 * a message an operator can act on. Messages never hold credentials, nor
 * repeat what the other side answered (its content types, banners, faults):
 * they name the step, so the test cannot tell what else listens somewhere.
 */
export class CameraError extends AppError {
  readonly step: ConnectionStep;
  readonly failure: CameraFailure;
  constructor(failure: CameraFailure, step: ConnectionStep, message: string) {
    super(STATUS[failure] ?? 502, `camera_${failure}`, message);
    this.name = "CameraError";
    this.step = step;
    this.failure = failure;
  }
}

/** The camera (or its system's connection type) cannot pan, tilt or zoom: a 409. */
export class PtzNotSupportedError extends AppError {
  constructor(message: string) {
    super(409, "ptz_not_supported", message);
    this.name = "PtzNotSupportedError";
  }
}

/** goto_preset named a preset number the camera does not have: a 404. */
export class PresetNotFoundError extends AppError {
  constructor(message: string) {
    super(404, "preset_not_found", message);
    this.name = "PresetNotFoundError";
  }
}

/** Where a request to a camera stood when it failed, for the message. */
export type Where = {
  host: string;
  port: number;
  step: ConnectionStep;
  /** What we were doing, as "while …" reads: "reading the stream description". */
  doing: string;
  timeoutMs: number;
};

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
export const at = (w: Pick<Where, "host" | "port">) => `${w.host.includes(":") ? `[${w.host}]` : w.host}:${w.port}`;

export function timedOut(w: Where): CameraError {
  return new CameraError(
    "timed_out",
    w.step,
    `No answer from ${at(w)} within ${seconds(w.timeoutMs)} while ${w.doing}. Check that the device is on and the port is right.`,
  );
}

/** A socket or DNS error (err.code) in the words of the step it happened in. */
export function networkFailure(err: unknown, w: Where): CameraError {
  if (err instanceof CameraError) return err;
  const code =
    (err as { code?: string; cause?: { code?: string } })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
  switch (code) {
    case "ENOTFOUND":
    case "EAI_NONAME":
    case "EAI_NODATA":
      return new CameraError(
        "address_not_found",
        "address",
        `The address "${w.host}" was not found (DNS). Check the host name.`,
      );
    case "EAI_AGAIN":
      return new CameraError(
        "address_not_found",
        "address",
        `The address "${w.host}" could not be looked up: the name server did not answer. Check the host name and the server's DNS.`,
      );
    case "ECONNREFUSED":
      return new CameraError(
        "refused",
        "connect",
        `${at(w)} refused the connection: nothing listens on port ${w.port}. Check the port and that the device is on.`,
      );
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EHOSTDOWN":
    case "ENETDOWN":
    case "EADDRNOTAVAIL":
      return new CameraError(
        "unreachable",
        "connect",
        `${at(w)} cannot be reached from the server (no route to it). Check the address and the network between them.`,
      );
    case "ETIMEDOUT":
      return timedOut(w);
    case "ECONNRESET":
    case "EPIPE":
    case "ECONNABORTED":
      return new CameraError("connection_lost", w.step, `${at(w)} closed the connection while ${w.doing}.`);
    default:
      return new CameraError("bad_answer", w.step, `The connection to ${at(w)} failed while ${w.doing}.`);
  }
}
