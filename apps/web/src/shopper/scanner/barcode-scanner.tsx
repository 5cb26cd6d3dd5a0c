import { SCAN_BOX, SHOPPER_TIMING } from "@glide/contracts/shopper";
import { useEffect, useRef, useState } from "react";
import { log } from "../lib/log.ts";
import { sv } from "../sv.ts";
import type { FrameReader, Region } from "./decoder.ts";

interface Props {
  /** The shopping page's box is 70 % of the smaller video side; manual scan's is 250×250 px on screen. */
  box: "share" | "fixed";
  /** Try 2× zoom one second in, where the camera has zoom (the shopping page, spec §5). */
  zoom?: boolean;
  /** Called once, with the first code read; the camera is already off then. */
  onDetected(code: string): void;
  /** The camera or the decoder could not start. */
  onError(): void;
}

/** Where a video shown with object-fit: cover puts its pixels in the element. */
function coverGeometry(video: HTMLVideoElement) {
  const width = video.clientWidth;
  const height = video.clientHeight;
  const scale = Math.max(width / video.videoWidth, height / video.videoHeight);
  return {
    scale,
    offsetX: (width - video.videoWidth * scale) / 2,
    offsetY: (height - video.videoHeight * scale) / 2,
  };
}

/** The scan box in the video's own pixels, which is what the decoder reads at full resolution. */
export function scanRegion(video: HTMLVideoElement, box: Props["box"]): Region {
  const { videoWidth, videoHeight } = video;
  if (box === "share") {
    const side = Math.round(Math.min(videoWidth, videoHeight) * SCAN_BOX.shopShare);
    return { x: (videoWidth - side) / 2, y: (videoHeight - side) / 2, width: side, height: side };
  }
  const { scale, offsetX, offsetY } = coverGeometry(video);
  const side = SCAN_BOX.manualPx / scale;
  const centreX = (video.clientWidth / 2 - offsetX) / scale;
  const centreY = (video.clientHeight / 2 - offsetY) / scale;
  return { x: centreX - side / 2, y: centreY - side / 2, width: side, height: side };
}

/**
 * What is read around the small fixed box: a code held a little too close
 * overflows 250 px on screen, and a hand is never exact. The box on screen
 * stays 250×250; the decoder looks at half as much again around it.
 */
export const FIXED_BOX_READ_MARGIN = 1.5;

function readRegion(video: HTMLVideoElement, box: Props["box"]): Region {
  const region = scanRegion(video, box);
  if (box === "share") return region;
  const side = region.width * FIXED_BOX_READ_MARGIN;
  const x = Math.max(0, region.x - (side - region.width) / 2);
  const y = Math.max(0, region.y - (side - region.height) / 2);
  return {
    x,
    y,
    width: Math.min(video.videoWidth - x, side),
    height: Math.min(video.videoHeight - y, side),
  };
}

/** The same box in CSS pixels of the element, to draw it over the picture. */
function boxOnScreen(video: HTMLVideoElement, region: Region) {
  const { scale, offsetX, offsetY } = coverGeometry(video);
  return {
    left: offsetX + region.x * scale,
    top: offsetY + region.y * scale,
    width: region.width * scale,
    height: region.height * scale,
  };
}

async function tryZoom(track: MediaStreamTrack): Promise<void> {
  const capabilities = (track.getCapabilities?.() ?? {}) as { zoom?: { min: number; max: number } };
  if (!capabilities.zoom || capabilities.zoom.max < 2) return;
  await track.applyConstraints({ advanced: [{ zoom: 2 } as MediaTrackConstraintSet] });
}

/**
 * The camera scanner: the rear camera through getUserMedia, a scan box, and
 * ten reads a second of what is inside the box. The decoder (and, where the
 * browser has no BarcodeDetector, its WebAssembly) is loaded when this
 * mounts, not with the page.
 */
export function BarcodeScanner({ box, zoom = false, onDetected, onError }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  const [frame, setFrame] = useState<{ left: number; top: number; width: number; height: number } | null>(null);
  const callbacks = useRef({ onDetected, onError });
  callbacks.current = { onDetected, onError };

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let zoomTimer: ReturnType<typeof setTimeout> | undefined;

    const stopCamera = () => {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(zoomTimer);
      for (const track of stream?.getTracks() ?? []) track.stop();
      stream = null;
    };

    const fail = (error: unknown) => {
      if (stopped) return;
      log.warn("The scanner could not start", error);
      stopCamera();
      callbacks.current.onError();
    };

    const loop = (reader: FrameReader, element: HTMLVideoElement) => {
      const interval = 1000 / SHOPPER_TIMING.scanFramesPerSecond;
      const tick = async () => {
        if (stopped) return;
        const started = performance.now();
        if (element.readyState >= element.HAVE_CURRENT_DATA && element.videoWidth) {
          const region = scanRegion(element, box);
          const onScreen = boxOnScreen(element, region);
          // Ten times a second: render only when the box moved (rotation, a resize).
          setFrame((previous) =>
            previous &&
            Math.abs(previous.left - onScreen.left) < 0.5 &&
            Math.abs(previous.top - onScreen.top) < 0.5 &&
            Math.abs(previous.width - onScreen.width) < 0.5
              ? previous
              : onScreen,
          );
          const code = await reader.read(element, readRegion(element, box));
          if (code && !stopped) {
            stopCamera();
            callbacks.current.onDetected(code);
            return;
          }
        }
        timer = setTimeout(tick, Math.max(0, interval - (performance.now() - started)));
      };
      void tick();
    };

    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error("No camera access in this browser");
        const [media, { createFrameReader }] = await Promise.all([
          navigator.mediaDevices.getUserMedia({
            audio: false,
            video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } },
          }),
          import("./decoder.ts"),
        ]);
        stream = media;
        if (stopped) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        const element = video.current;
        if (!element) return;
        element.srcObject = media;
        await element.play();
        const reader = await createFrameReader();
        if (stopped) return;
        const [track] = media.getVideoTracks();
        if (zoom && track) {
          zoomTimer = setTimeout(() => {
            tryZoom(track).catch(() => {
              // Spec §5: zoom failures are ignored.
            });
          }, SHOPPER_TIMING.zoomAfterMs);
        }
        loop(reader, element);
      } catch (error) {
        fail(error);
      }
    })();

    return stopCamera;
  }, [box, zoom]);

  return (
    <div className="relative aspect-[3/4] w-full overflow-hidden rounded-2xl bg-black">
      <video
        ref={video}
        muted
        playsInline
        aria-label={sv.scanner.label}
        className="absolute inset-0 size-full object-cover"
      />
      {frame ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute rounded-lg border-4 border-white/90 shadow-[0_0_0_9999px_rgba(0,0,0,0.45)]"
          style={frame}
        />
      ) : (
        <p className="absolute inset-0 flex items-center justify-center text-white">{sv.scanner.starting}</p>
      )}
      <p className="absolute inset-x-0 bottom-3 text-center text-sm font-medium text-white drop-shadow">
        {sv.scanner.aim}
      </p>
    </div>
  );
}
