import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import forge from "node-forge";

/**
 * The simulator's own test PKI: a CA, a server certificate for loopback and
 * an RP client certificate as PKCS#12, as a bank would issue one. Made on
 * first use and kept in `dir`; nothing here is a real BankID certificate.
 */
export type SimulatorCerts = {
  /** PEM of the CA that signed the server certificate: what the RP pins. */
  caPem: string;
  serverKeyPem: string;
  serverCertPem: string;
  /** The RP's client certificate and key (PKCS#12). */
  clientPfx: Buffer;
  clientPassphrase: string;
  files: { ca: string; clientPfx: string };
};

const PASSPHRASE = "simulator-test-only";

function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString()),
  };
}

function certificate(opts: {
  commonName: string;
  publicKey: forge.pki.PublicKey;
  signer: forge.pki.rsa.PrivateKey;
  issuer?: forge.pki.Certificate;
  extensions: object[];
}): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = opts.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 5 * 365 * 24 * 3600 * 1000);
  const subject = [
    { name: "commonName", value: opts.commonName },
    { name: "organizationName", value: "Glide BankID Simulator (test only)" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(opts.issuer ? opts.issuer.subject.attributes : subject);
  cert.setExtensions(opts.extensions);
  cert.sign(opts.signer, forge.md.sha256.create());
  return cert;
}

export function loadOrCreateCerts(dir: string): SimulatorCerts {
  const files = {
    ca: path.join(dir, "ca.pem"),
    serverKey: path.join(dir, "server-key.pem"),
    serverCert: path.join(dir, "server-cert.pem"),
    clientPfx: path.join(dir, "rp-client.p12"),
  };
  if (!Object.values(files).every(existsSync)) {
    mkdirSync(dir, { recursive: true });
    const caKeys = newKey();
    const ca = certificate({
      commonName: "Test BankID Simulator Root CA",
      publicKey: caKeys.publicKey,
      signer: caKeys.privateKey,
      extensions: [
        { name: "basicConstraints", cA: true },
        { name: "keyUsage", keyCertSign: true, cRLSign: true },
      ],
    });
    const serverKeys = newKey();
    const server = certificate({
      commonName: "localhost",
      publicKey: serverKeys.publicKey,
      signer: caKeys.privateKey,
      issuer: ca,
      extensions: [
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", serverAuth: true },
        {
          name: "subjectAltName",
          altNames: [
            { type: 2, value: "localhost" },
            { type: 7, ip: "127.0.0.1" },
            { type: 7, ip: "::1" },
          ],
        },
      ],
    });
    const clientKeys = newKey();
    const client = certificate({
      commonName: "Glide RP Testcert",
      publicKey: clientKeys.publicKey,
      signer: caKeys.privateKey,
      issuer: ca,
      extensions: [
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", clientAuth: true },
      ],
    });
    const p12 = forge.pkcs12.toPkcs12Asn1(clientKeys.privateKey, [client, ca], PASSPHRASE, { algorithm: "aes256" });
    writeFileSync(files.ca, forge.pki.certificateToPem(ca));
    writeFileSync(files.serverKey, forge.pki.privateKeyToPem(serverKeys.privateKey), { mode: 0o600 });
    writeFileSync(files.serverCert, forge.pki.certificateToPem(server));
    writeFileSync(files.clientPfx, Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary"), { mode: 0o600 });
  }
  return {
    caPem: readFileSync(files.ca, "utf8"),
    serverKeyPem: readFileSync(files.serverKey, "utf8"),
    serverCertPem: readFileSync(files.serverCert, "utf8"),
    clientPfx: readFileSync(files.clientPfx),
    clientPassphrase: PASSPHRASE,
    files: { ca: files.ca, clientPfx: files.clientPfx },
  };
}
