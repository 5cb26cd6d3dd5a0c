import { createServer } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * Tests of e-mail: a real SMTP server (`smtp-server`) on a free loopback
 * port that parses what it is given with `mailparser`. It can refuse the
 * message with a reply code, or hold its answer until told to go on.
 */
export type SmtpSink = {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Every message accepted, parsed, with the envelope's recipients. */
  messages: Array<ParsedMail & { envelopeTo: string[] }>;
  /** Resolves when `count` messages have been accepted (fails after `timeoutMs`). */
  received(count: number, timeoutMs?: number): Promise<SmtpSink["messages"]>;
  /** Answer the end of DATA with this reply code (451: try later, 554: refused) instead of accepting; null accepts. */
  refuseWith(code: number | null): void;
  /** Hold the answer to DATA until `release()`; `holding` resolves once a message is being held. */
  hold(): { holding: Promise<void>; release(): void };
  /** How many messages reached the end of DATA, accepted or not. */
  readonly attempts: number;
  close(): Promise<void>;
};

/** `port`: listen there (a server that was down comes back at the same address); a free one when left out. */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: SmtpSink["messages"] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let refusal: number | null = null;
  let gate: { reached: () => void; open: Promise<void> } | null = null;
  let attempts = 0;

  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS (its built-in certificate is for nobody), no login.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        attempts++;
        if (gate) {
          gate.reached();
          await gate.open;
        }
        if (refusal !== null) {
          callback(Object.assign(new Error("Not now"), { responseCode: refusal }));
          return;
        }
        const parsed = await simpleParser(Buffer.concat(chunks));
        messages.push({ ...parsed, envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address) });
        for (const waiter of waiters.filter((w) => messages.length >= w.count)) waiter.resolve();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.server.address();
  if (!address || typeof address === "string") throw new Error("SMTP sink has no port");

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    get attempts() {
      return attempts;
    },
    received(count, timeoutMs = 10_000) {
      if (messages.length >= count) return Promise.resolve(messages);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`SMTP sink: ${messages.length} of ${count} messages after ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(messages);
          },
        });
      });
    },
    refuseWith(code) {
      refusal = code;
    },
    hold() {
      let reached!: () => void;
      let release!: () => void;
      const holding = new Promise<void>((resolve) => {
        reached = resolve;
      });
      const open = new Promise<void>((resolve) => {
        release = resolve;
      });
      gate = { reached, open };
      return {
        holding,
        release: () => {
          gate = null;
          release();
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An smtp:// address where nothing listens: a port taken and let go again. */
export async function closedSmtpUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return `smtp://127.0.0.1:${address.port}`;
}
