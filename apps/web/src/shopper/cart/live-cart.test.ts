import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../lib/client.ts", () => ({ refreshTokens: vi.fn(async () => false) }));
vi.mock("../lib/storage.ts", () => ({ tokenStore: { access: () => "token", refresh: () => null } }));

/** A socket that opens nothing: the test closes it as the server would. */
class FakeSocket {
  static made: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeSocket.made.push(this);
  }
  send() {}
  close() {}
}

const { connectLiveCart, restartDelay } = await import("./live-cart.ts");

describe("the live cart's reconnection", () => {
  let stop: () => void = () => {};
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.made = [];
    const listeners = { addEventListener() {}, removeEventListener() {} };
    vi.stubGlobal("WebSocket", FakeSocket);
    vi.stubGlobal("location", { protocol: "https:", host: "butik.example.se" });
    vi.stubGlobal("window", listeners);
    vi.stubGlobal("document", { ...listeners, visibilityState: "visible" });
    stop = connectLiveCart("6f1c2b4e-8a47-4d3e-9a51-0c7d2e9b1f30", () => {});
  });
  afterEach(() => {
    stop();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const closeWith = (code: number) => FakeSocket.made.at(-1)!.onclose?.({ code, reason: "" });

  it("comes back within half a second when the instance restarts (1012)", () => {
    expect(FakeSocket.made).toHaveLength(1);
    expect(FakeSocket.made[0]!.url).toBe(
      "wss://butik.example.se/ws/cart?session_id=6f1c2b4e-8a47-4d3e-9a51-0c7d2e9b1f30",
    );
    closeWith(1012);
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made).toHaveLength(2);
    // And again at the next restart: a restart does not grow the backoff.
    closeWith(1012);
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made).toHaveLength(3);
  });

  it("waits its backoff, a second or so, after a connection that just dropped", () => {
    closeWith(1006);
    vi.advanceTimersByTime(500);
    expect(FakeSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.made).toHaveLength(2);
  });

  it("does not come back by itself when a newer socket of the visit took its place (4409)", () => {
    closeWith(4409);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made).toHaveLength(1);
  });

  it("spreads the restart's returns over half a second", () => {
    const delays = Array.from({ length: 200 }, restartDelay);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(500);
    expect(new Set(delays).size).toBeGreaterThan(50);
  });
});
