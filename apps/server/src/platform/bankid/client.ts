import https from "node:https";

/** BankID RP API v6.0 over mutual TLS: the client certificate proves who we are, the pinned CA who they are. */
export type BankIdClientOptions = {
  /** e.g. https://appapi2.test.bankid.com/rp/v6.0 */
  url: string;
  pfx: Buffer;
  passphrase: string;
  /** PEM of the CA that signs BankID's server certificate; nothing else is trusted. */
  ca: string | Buffer;
  timeoutMs?: number;
};

export type AuthRequest = {
  endUserIp: string;
  userVisibleData?: string;
  returnUrl?: string;
  web?: { referringDomain?: string; userAgent?: string; deviceIdentifier?: string };
  requirement?: { pinCode?: boolean; personalNumber?: string; certificatePolicies?: string[] };
};
export type AuthResponse = { orderRef: string; autoStartToken: string; qrStartToken: string; qrStartSecret: string };
export type CompletionData = {
  user: { personalNumber: string; name: string; givenName: string; surname: string };
  device?: { ipAddress?: string; uhi?: string };
  bankIdIssueDate?: string;
  signature?: string;
  ocspResponse?: string;
  risk?: string;
};
export type CollectResponse =
  | { orderRef: string; status: "pending"; hintCode?: string }
  | { orderRef: string; status: "failed"; hintCode?: string }
  | { orderRef: string; status: "complete"; completionData: CompletionData };

/** An error answer from BankID ({ errorCode, details }), or no answer at all ("unreachable"). */
export class BankIdError extends Error {
  readonly errorCode: string;
  readonly httpStatus: number | null;
  constructor(errorCode: string, details: string, httpStatus: number | null) {
    super(`BankID ${errorCode}: ${details}`);
    this.errorCode = errorCode;
    this.httpStatus = httpStatus;
  }
}

export interface BankIdApi {
  auth(request: AuthRequest): Promise<AuthResponse>;
  collect(orderRef: string): Promise<CollectResponse>;
  cancel(orderRef: string): Promise<void>;
}

export function createBankIdClient(opts: BankIdClientOptions): BankIdApi {
  const base = new URL(opts.url.endsWith("/") ? opts.url : `${opts.url}/`);
  const tls = { pfx: opts.pfx, passphrase: opts.passphrase, ca: opts.ca, minVersion: "TLSv1.2" } as const;
  const agent = new https.Agent({ ...tls, keepAlive: true });
  /** For a call asked again: a connection of its own, not another kept-alive one that may be just as stale. */
  const freshAgent = new https.Agent({ ...tls, keepAlive: false });
  const timeoutMs = opts.timeoutMs ?? 10_000;

  /**
   * One call, asked once more on a fresh connection when it went out on a
   * kept-alive connection that the server had already closed (Node: a reset
   * on a reused socket, "socket hang up"). The server closes idle connections
   * on its own clock, so one request in a while meets a closed socket; the
   * shopper must not hear "unreachable" for it. Nothing was answered, and a
   * repeated auth only leaves an unused order behind; collect and cancel are
   * safe to repeat.
   */
  async function post<T>(endpoint: string, body: unknown): Promise<T> {
    try {
      return await postOnce<T>(endpoint, body);
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
      return postOnce<T>(endpoint, body, true);
    }
  }

  function postOnce<T>(endpoint: string, body: unknown, fresh = false): Promise<T> {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise<T>((resolve, reject) => {
      const req = https.request(
        new URL(endpoint, base),
        {
          method: "POST",
          agent: fresh ? freshAgent : agent,
          // Exactly this: BankID answers 415 when a charset is added.
          headers: { "content-type": "application/json", "content-length": payload.length },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let json: Record<string, unknown> = {};
            try {
              json = text ? JSON.parse(text) : {};
            } catch {
              return reject(
                new BankIdError("internalError", `not JSON (HTTP ${res.statusCode})`, res.statusCode ?? null),
              );
            }
            if (res.statusCode === 200) return resolve(json as T);
            reject(
              new BankIdError(
                typeof json.errorCode === "string" ? json.errorCode : `http${res.statusCode}`,
                typeof json.details === "string" ? json.details : "",
                res.statusCode ?? null,
              ),
            );
          });
          res.on("error", (err) => reject(new BankIdError("unreachable", err.message, null)));
        },
      );
      req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on("error", (err: NodeJS.ErrnoException) => {
        if (err instanceof BankIdError) return reject(err);
        if (!fresh && req.reusedSocket && err.code === "ECONNRESET") return reject(new StaleConnection());
        reject(new BankIdError("unreachable", err.message, null));
      });
      req.end(payload);
    });
  }

  return {
    auth: (request) => post<AuthResponse>("auth", request),
    collect: (orderRef) => post<CollectResponse>("collect", { orderRef }),
    cancel: async (orderRef) => {
      await post("cancel", { orderRef });
    },
  };
}

/** A call that went out on a kept-alive connection the server had closed: asked once more. */
class StaleConnection extends Error {}
