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
  const agent = new https.Agent({
    pfx: opts.pfx,
    passphrase: opts.passphrase,
    ca: opts.ca,
    keepAlive: true,
    minVersion: "TLSv1.2",
  });
  const timeoutMs = opts.timeoutMs ?? 10_000;

  function post<T>(endpoint: string, body: unknown): Promise<T> {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise<T>((resolve, reject) => {
      const req = https.request(
        new URL(endpoint, base),
        {
          method: "POST",
          agent,
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
      req.on("error", (err) =>
        reject(err instanceof BankIdError ? err : new BankIdError("unreachable", err.message, null)),
      );
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
