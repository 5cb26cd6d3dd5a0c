/**
 * Talking to cameras: the device side of the cameras feature, with no
 * database. Give it a system's connection data (password decrypted) and a
 * channel; it answers in the contract's shapes or throws the typed errors
 * below, whose messages an operator can act on and never hold credentials.
 */
export { DEFAULT_STREAM_PRESETS, SNAPSHOT_PATHS, type StreamPreset } from "./brands.ts";
export { type StreamInfo, snapshot, snapshotPicture, streamInfo } from "./camera-client.ts";
export {
  type AddressVerdict,
  CameraNetworks,
  literalAddress,
  parseCidr,
  type RefusalReason,
  refusalText,
} from "./camera-networks.ts";
export {
  type CameraCallOptions,
  type CameraSystemConnection,
  DEFAULT_TIMEOUT_MS,
  streamAddressFor,
} from "./camera-system.ts";
export { type ConnectionTestOptions, testConnection } from "./connection-test.ts";
export {
  CameraError,
  type CameraFailure,
  type ConnectionStep,
  PresetNotFoundError,
  PtzNotSupportedError,
} from "./errors.ts";
export type { Picture } from "./picture.ts";
export { type PtzOptions, type PtzRequest, ptz, ptzPresets } from "./ptz.ts";
