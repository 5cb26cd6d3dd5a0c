import net from "node:net";
import { describe, expect, it } from "vitest";
import { freePorts, portInUse } from "./ports.ts";

/** A program of someone else's on a loopback port, as a new user's machine may have on 3100. */
async function occupy(host: string): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("ports for the browser tests", () => {
  it("says a port is taken by another program, on IPv4 loopback", async () => {
    const other = await occupy("127.0.0.1");
    try {
      expect(await portInUse(other.port)).toBe("EADDRINUSE");
    } finally {
      await other.close();
    }
    expect(await portInUse(other.port)).toBeNull();
  });

  it("gives distinct ports that are free now", async () => {
    const ports = await freePorts(5);
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) expect(await portInUse(port)).toBeNull();
  });
});
