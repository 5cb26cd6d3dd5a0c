import { createTransport } from "nodemailer";

/** One e-mail with a plain-text and an HTML part. */
export type MailMessage = { to: string; subject: string; text: string; html: string };

export type MailOutcome =
  | { kind: "accepted" }
  /**
   * Not accepted. `permanent`: the server refused this message for good (a 5xx
   * reply), so sending it again would be refused again; otherwise (4xx, no
   * connection, a timeout) a later try may go through. `reason` holds codes
   * only, never the address, so it may be logged and stored.
   */
  | { kind: "refused"; permanent: boolean; reason: string };

/** Sends mail; the answer says whether the server took responsibility for it. */
export interface Mailer {
  send(message: MailMessage): Promise<MailOutcome>;
  close(): void;
}

export type SmtpMailerOptions = {
  /** smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://… (TLS from the start). */
  url: string;
  /** "Name <address>" or an address. */
  from: string;
  /** How long to wait for the connection, the greeting, and each reply; a slow server is given up on after it. */
  timeoutMs?: number;
};

type SmtpError = Error & { code?: string; originalCode?: string; responseCode?: number; permanent?: boolean };

/** A mailer on nodemailer's SMTP transport: a connection per message, so nothing is held between sends. */
export function createSmtpMailer(opts: SmtpMailerOptions): Mailer {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const transport = createTransport(
    {
      url: opts.url,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    },
    { from: opts.from },
  );
  return {
    async send(message) {
      try {
        await transport.sendMail({ ...message, disableFileAccess: true, disableUrlAccess: true });
        return { kind: "accepted" };
      } catch (err) {
        const e = err as SmtpError;
        const reply = typeof e.responseCode === "number" ? e.responseCode : null;
        return {
          kind: "refused",
          permanent: e.permanent === true || (reply !== null && reply >= 500 && reply < 600 && reply !== 503),
          reason: [e.code ?? e.name, e.originalCode, reply]
            .filter((part) => part !== null && part !== undefined)
            .join(" "),
        };
      }
    },
    close: () => transport.close(),
  };
}
