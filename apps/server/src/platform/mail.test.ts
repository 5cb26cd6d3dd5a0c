import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { closedSmtpUrl, type SmtpSink, startSmtpSink } from "../test/smtp-sink.ts";
import { createSmtpMailer } from "./mail.ts";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink?.close());

const message = {
  to: "kund@example.se",
  subject: "Kvitto från Hörnbutiken nr 7",
  text: "Totalt 35,80 kr",
  html: "<p>Totalt 35,80 kr</p>",
};

describe("the SMTP mailer", () => {
  it("hands the message to the server: sender, recipient, subject, both parts", async () => {
    sink.refuseWith(null);
    const mailer = createSmtpMailer({ url: sink.url, from: "Glide <kvitto@glide.local>" });
    const before = sink.messages.length;
    expect(await mailer.send(message)).toEqual({ kind: "accepted" });
    const [mail] = (await sink.received(before + 1)).slice(before);
    expect(mail?.envelopeTo).toEqual(["kund@example.se"]);
    expect(mail?.from?.value).toEqual([{ name: "Glide", address: "kvitto@glide.local" }]);
    expect(mail?.subject).toBe("Kvitto från Hörnbutiken nr 7");
    expect(mail?.text?.trim()).toBe("Totalt 35,80 kr");
    expect(mail?.html).toContain("<p>Totalt 35,80 kr</p>");
    mailer.close();
  });

  it("a 4xx answer may pass later, a 5xx is for good; neither reason holds the address", async () => {
    const mailer = createSmtpMailer({ url: sink.url, from: "kvitto@glide.local" });
    const before = sink.messages.length;
    try {
      sink.refuseWith(451);
      const later = await mailer.send(message);
      expect(later).toMatchObject({ kind: "refused", permanent: false });
      sink.refuseWith(554);
      const never = await mailer.send(message);
      expect(never).toMatchObject({ kind: "refused", permanent: true });
      for (const outcome of [later, never]) {
        expect(outcome.kind === "refused" && outcome.reason).not.toContain("kund@");
      }
      expect(later.kind === "refused" && later.reason).toContain("451");
      expect(never.kind === "refused" && never.reason).toContain("554");
    } finally {
      sink.refuseWith(null);
    }
    expect(sink.messages.length).toBe(before);
    mailer.close();
  });

  it("no server listening is worth trying again", async () => {
    const mailer = createSmtpMailer({ url: await closedSmtpUrl(), from: "kvitto@glide.local", timeoutMs: 2000 });
    expect(await mailer.send(message)).toMatchObject({ kind: "refused", permanent: false });
    mailer.close();
  });

  it("a server that does not answer in time is given up on, to try again later", async () => {
    const held = sink.hold();
    const mailer = createSmtpMailer({ url: sink.url, from: "kvitto@glide.local", timeoutMs: 300 });
    try {
      const started = Date.now();
      expect(await mailer.send(message)).toMatchObject({ kind: "refused", permanent: false });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      held.release();
      mailer.close();
    }
  });
});

describe("SMTP_URL and MAIL_FROM", () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), "glide-mail-config-"));

  it("unset: no mail, and a sender of our own", () => {
    expect(loadConfig({ DATA_DIR: dir() })).toMatchObject({ smtpUrl: null, mailFrom: "Glide <kvitto@glide.local>" });
  });

  it("takes smtp:// and smtps:// addresses, with a login", () => {
    for (const url of ["smtp://127.0.0.1:2525", "smtps://user:p%40ss@mail.example.se:465"]) {
      expect(loadConfig({ DATA_DIR: dir(), SMTP_URL: url }).smtpUrl).toBe(url);
    }
  });

  it("refuses any other scheme, naming the variable", () => {
    for (const url of ["http://mail.example.se", "mail.example.se:25", "postgres://x"]) {
      expect(() => loadConfig({ DATA_DIR: dir(), SMTP_URL: url })).toThrowError(
        /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
      );
    }
  });

  it("MAIL_FROM is an address, or a name and one; nothing that could add a header", () => {
    for (const from of ["kvitto@butik.se", "Hörnbutiken <kvitto@butik.se>"]) {
      expect(loadConfig({ DATA_DIR: dir(), MAIL_FROM: from }).mailFrom).toBe(from);
    }
    for (const from of ["kvitto", "Butik <kvitto>", "kvitto@butik.se\r\nBcc: x@y.se", "A <a@b.se> <c@d.se>", ""]) {
      expect(() => loadConfig({ DATA_DIR: dir(), MAIL_FROM: from }), from).toThrowError(/MAIL_FROM/);
    }
  });
});
