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

export function newKey() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString()),
  };
}

export function certificate(opts: {
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

/** A self-signed root CA; other test PKIs (a foreign CA in tests) are made the same way. */
export function createCa(commonName: string) {
  const keys = newKey();
  const cert = certificate({
    commonName,
    publicKey: keys.publicKey,
    signer: keys.privateKey,
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true },
    ],
  });
  return { cert, key: keys.privateKey };
}

/** A TLS server certificate for loopback, signed by `ca`. */
export function createServerCertificate(ca: ReturnType<typeof createCa>) {
  const keys = newKey();
  const cert = certificate({
    commonName: "localhost",
    publicKey: keys.publicKey,
    signer: ca.key,
    issuer: ca.cert,
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
  return { certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(keys.privateKey) };
}

/**
 * The RP's PKCS#12 holds its key and certificate only. A CA inside it would
 * be trusted by Node next to BANKID_CA, so a wrong BANKID_CA would go unnoticed.
 */
function clientPkcs12(key: forge.pki.rsa.PrivateKey, cert: forge.pki.Certificate): Buffer {
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], PASSPHRASE, { algorithm: "aes256" });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary");
}

const CERT_BAG = "1.2.840.113549.1.12.10.1.3";
const SHROUDED_KEY_BAG = "1.2.840.113549.1.12.10.1.2";

function bagsOf(pfx: Buffer, passphrase: string, bagType: string) {
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(pfx.toString("binary")), passphrase);
  return p12.getBags({ bagType })[bagType] ?? [];
}

/** The certificates in a PKCS#12 file. */
export function pkcs12Certificates(pfx: Buffer, passphrase: string): forge.pki.Certificate[] {
  return bagsOf(pfx, passphrase, CERT_BAG).flatMap((bag) => (bag.cert ? [bag.cert] : []));
}

/** Bundles made before the CA was left out are rewritten with the client certificate alone. */
function dropBundledCa(file: string): void {
  const pfx = readFileSync(file);
  const certs = pkcs12Certificates(pfx, PASSPHRASE);
  if (certs.length <= 1) return;
  const key = bagsOf(pfx, PASSPHRASE, SHROUDED_KEY_BAG)[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  const client = certs.find((c) => !c.getExtension("basicConstraints"));
  if (key && client) writeFileSync(file, clientPkcs12(key, client), { mode: 0o600 });
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
    const ca = createCa("Test BankID Simulator Root CA");
    const server = createServerCertificate(ca);
    const clientKeys = newKey();
    const client = certificate({
      commonName: "Glide RP Testcert",
      publicKey: clientKeys.publicKey,
      signer: ca.key,
      issuer: ca.cert,
      extensions: [
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
        { name: "extKeyUsage", clientAuth: true },
      ],
    });
    writeFileSync(files.ca, forge.pki.certificateToPem(ca.cert));
    writeFileSync(files.serverKey, server.keyPem, { mode: 0o600 });
    writeFileSync(files.serverCert, server.certPem);
    writeFileSync(files.clientPfx, clientPkcs12(clientKeys.privateKey, client), { mode: 0o600 });
  } else {
    dropBundledCa(files.clientPfx);
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
