import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import forge from "node-forge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCa,
  createServerCertificate,
  loadOrCreateCerts,
  pkcs12Certificates,
  type SimulatorCerts,
} from "../../../../../tools/bankid-simulator/certs.ts";
import { type BankIdSimulator, createBankIdSimulator } from "../../../../../tools/bankid-simulator/simulator.ts";
import { BankIdError, createBankIdClient } from "./client.ts";

let certs: SimulatorCerts;
let simulator: BankIdSimulator;
let rpUrl: string;
let controlUrl: string;
/** A CA of another name that signed nothing the simulator serves. */
let foreignCaPem: string;

beforeAll(async () => {
  certs = loadOrCreateCerts(mkdtempSync(path.join(tmpdir(), "glide-bankid-client-")));
  simulator = createBankIdSimulator({ certs });
  ({ rpUrl, controlUrl } = await simulator.listen());
  foreignCaPem = forge.pki.certificateToPem(createCa("Some Other Root CA").cert);
});
afterAll(() => simulator.close());

const client = (ca: string, url = rpUrl) =>
  createBankIdClient({ url, pfx: certs.clientPfx, passphrase: certs.clientPassphrase, ca, timeoutMs: 5000 });

async function refusal(call: Promise<unknown>): Promise<BankIdError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BankIdError);
  return error as BankIdError;
}

describe("the client trusts only the pinned CA", () => {
  it("the RP bundle holds the client's key and certificate, no CA", () => {
    const bundled = pkcs12Certificates(certs.clientPfx, certs.clientPassphrase);
    expect(bundled.map((c) => c.subject.getField("CN").value)).toEqual(["Glide RP Testcert"]);
  });

  it("reaches the simulator with the simulator's CA pinned", async () => {
    const order = await client(certs.caPem).auth({ endUserIp: "192.0.2.1" });
    expect(order.orderRef).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses the simulator when another CA is pinned (a wrong BANKID_CA)", async () => {
    const error = await refusal(client(foreignCaPem).auth({ endUserIp: "192.0.2.1" }));
    expect(error.errorCode).toBe("unreachable");
    expect(error.httpStatus).toBeNull();
  });

  it("refuses a server whose certificate another CA signed", async () => {
    const impostorCa = createCa("Test BankID Simulator Root CA");
    const { certPem, keyPem } = createServerCertificate(impostorCa);
    const impostor = https.createServer({ key: keyPem, cert: certPem }, (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"orderRef":"x","autoStartToken":"x","qrStartToken":"x","qrStartSecret":"x"}');
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = impostor.address() as { port: number };
      const error = await refusal(client(certs.caPem, `https://127.0.0.1:${port}/rp/v6.0`).auth({ endUserIp: "::1" }));
      expect(error.errorCode).toBe("unreachable");
      // The same server is reached once its CA is the pinned one: the refusal above is about trust.
      const trusted = client(forge.pki.certificateToPem(impostorCa.cert), `https://127.0.0.1:${port}/rp/v6.0`);
      expect((await trusted.auth({ endUserIp: "::1" })).orderRef).toBe("x");
    } finally {
      impostor.closeAllConnections();
      await new Promise((resolve) => impostor.close(resolve));
    }
  });

  it("a call on a kept-alive connection the server has closed is asked again on a new one, once", async () => {
    // A server that answers the first request of each connection and resets the connection on the next,
    // as a server does that closes an idle connection just as the client reuses it.
    const ca = createCa("Keep-alive Test Root CA");
    const { certPem, keyPem } = createServerCertificate(ca);
    const served = new WeakMap<object, number>();
    let resets = 0;
    let answered = 0;
    const server = https.createServer({ key: keyPem, cert: certPem }, (req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count > 1) {
        resets++;
        req.socket.destroy();
        return;
      }
      answered++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"orderRef":"order-${answered}","autoStartToken":"x","qrStartToken":"x","qrStartSecret":"x"}`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const api = client(forge.pki.certificateToPem(ca.cert), `https://127.0.0.1:${port}/rp/v6.0`);
      expect((await api.auth({ endUserIp: "::1" })).orderRef).toBe("order-1");
      // The second call goes out on the kept connection, which the server resets: it is asked again, fresh.
      expect((await api.auth({ endUserIp: "::1" })).orderRef).toBe("order-2");
      expect(resets).toBe(1);
      expect(answered).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a connection refused is not asked again: the shopper hears at once that BankID cannot be reached", async () => {
    const closed = https.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusal(client(certs.caPem, `https://127.0.0.1:${port}/rp/v6.0`).auth({ endUserIp: "::1" }));
    expect(error.errorCode).toBe("unreachable");
  });

  it("a bundle made with the CA inside is rewritten without it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "glide-bankid-legacy-"));
    const made = loadOrCreateCerts(dir);
    const der = forge.asn1.fromDer(made.clientPfx.toString("binary"));
    const p12 = forge.pkcs12.pkcs12FromAsn1(der, made.clientPassphrase);
    const keyBag = "1.2.840.113549.1.12.10.1.2";
    const key = p12.getBags({ bagType: keyBag })[keyBag]?.[0]?.key as forge.pki.rsa.PrivateKey;
    const [clientCert] = pkcs12Certificates(made.clientPfx, made.clientPassphrase);
    const ca = forge.pki.certificateFromPem(made.caPem);
    const legacy = forge.pkcs12.toPkcs12Asn1(key, [clientCert!, ca], made.clientPassphrase, { algorithm: "aes256" });
    writeFileSync(made.files.clientPfx, Buffer.from(forge.asn1.toDer(legacy).getBytes(), "binary"));
    expect(pkcs12Certificates(readFileSync(made.files.clientPfx), made.clientPassphrase)).toHaveLength(2);

    const reloaded = loadOrCreateCerts(dir);
    const left = pkcs12Certificates(reloaded.clientPfx, reloaded.clientPassphrase);
    expect(left.map((c) => c.subject.getField("CN").value)).toEqual(["Glide RP Testcert"]);
    expect(reloaded.caPem).toBe(made.caPem);
  });
});

describe("the simulator checks personal numbers as BankID does", () => {
  const auth = (personalNumber: string) =>
    client(certs.caPem).auth({ endUserIp: "192.0.2.7", requirement: { personalNumber } });

  it.each([
    ["123", "too short"],
    ["abcdefghijkl", "not digits"],
    ["199013012385", "month 13"],
    ["199002302389", "30 February"],
    ["199001002386", "day 0"],
    ["199001012386", "wrong check digit"],
    ["1990010123855", "13 digits"],
    ["19900101-2385", "with a dash"],
  ])("requirement.personalNumber %s (%s) is 400 invalidParameters", async (personalNumber) => {
    const error = await refusal(auth(personalNumber));
    expect(error.errorCode).toBe("invalidParameters");
    expect(error.httpStatus).toBe(400);
  });

  it.each([
    ["199001012385", "a real date"],
    ["200002292381", "29 February of a leap year"],
    ["199001612382", "a coordination number (day + 60)"],
  ])("requirement.personalNumber %s (%s) starts an order", async (personalNumber) => {
    expect((await auth(personalNumber)).orderRef).toBeTruthy();
  });

  it("the app cannot approve with an invalid personal number, nor one it has no name for", async () => {
    const { orderRef } = await client(certs.caPem).auth({ endUserIp: "192.0.2.8" });
    const approve = (body: object) =>
      fetch(`${controlUrl}/api/orders/${orderRef}/approve`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const personalNumber of ["123", "abcdefghijkl", "199013012385"]) {
      expect((await approve({ personalNumber, name: "Test Person" })).status).toBe(400);
    }
    expect((await approve({ personalNumber: "199001612382" })).status).toBe(400);
    expect((await approve({ personalNumber: "199001612382", name: "Sam Ordning" })).status).toBe(200);
    const done = await client(certs.caPem).collect(orderRef);
    expect(done.status === "complete" && done.completionData.user).toMatchObject({
      personalNumber: "199001612382",
      givenName: "Sam",
      surname: "Ordning",
    });
  });
});
