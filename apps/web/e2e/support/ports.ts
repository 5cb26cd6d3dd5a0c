import net from "node:net";

/** Resolves with the error code if a program already listens on `port` (either loopback), else null. */
export function portInUse(port: number): Promise<string | null> {
  const tryHost = (host: string) =>
    new Promise<string | null>((resolve) => {
      const server = net.createServer();
      server.once("error", (error: NodeJS.ErrnoException) =>
        // A machine without IPv6 cannot have a program on ::1 either.
        resolve(error.code === "EADDRNOTAVAIL" || error.code === "EAFNOSUPPORT" ? null : (error.code ?? "error")),
      );
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
    });
  return tryHost("127.0.0.1").then((code) => code ?? tryHost("::1"));
}

/** `count` distinct ports the system has free now: held open together so they cannot repeat. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
