import type { CollectResponse, ShopperTokens } from "@glide/contracts";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { bankidOrders, customers } from "../../db/schema/index.ts";
import type { BankIdApi } from "../../platform/bankid/client.ts";
import { BankIdError } from "../../platform/bankid/client.ts";
import { errorMessage, failedMessage, pendingMessage } from "../../platform/bankid/messages.ts";
import { qrCodeData } from "../../platform/bankid/qr.ts";
import { encrypt, keyedHash } from "../../platform/crypto.ts";
import { AppError, conflict, notFound, tooManyRequests } from "../../platform/errors.ts";
import { birthDate, isValidPersonalNumber } from "../../platform/personal-number.ts";
import { countHit } from "../../platform/rate-limit.ts";
import { issueTokens } from "./shopper-tokens.ts";

export type ShopperKeys = { personalNumberHash: Buffer; personalNumberSeal: Buffer; jwt: Buffer };

/** BankID is asked about one order at most this often, however many browsers or instances poll. */
export const COLLECT_INTERVAL_MS = 2000;
/**
 * Sign-ins one address may start per minute. A store's guest Wi-Fi puts every
 * shopper behind one address, so this stops a script, not a queue at the door.
 */
export const INIT_LIMIT = { perAddress: 30, windowMs: 60_000 };
const DEFAULT_VISIBLE_TEXT = "Logga in i Glide";

function requireBankId(bankid: BankIdApi | null): BankIdApi {
  if (!bankid)
    throw new AppError(503, "bankid_unavailable", "BankID är inte tillgängligt just nu. Försök igen senare.");
  return bankid;
}

/** A BankID error as an answer to the shopper: RFA text, and a status that says whose fault it was. */
function bankIdFailure(err: unknown): AppError {
  if (!(err instanceof BankIdError)) throw err;
  if (err.errorCode === "alreadyInProgress")
    return new AppError(409, "bankid_already_in_progress", errorMessage(err.errorCode));
  const status = err.errorCode === "maintenance" || err.errorCode === "unreachable" ? 503 : 502;
  return new AppError(status, `bankid_${err.errorCode}`, errorMessage(err.errorCode));
}

export async function startSignIn(opts: {
  db: Db;
  bankid: BankIdApi | null;
  ip: string;
  userAgent: string | undefined;
  deviceHash: string;
  publicUrl: string;
  visibleText?: string | undefined;
  returnPath?: string | undefined;
  autostart: boolean;
}): Promise<{ order_ref: string; auto_start_token: string }> {
  const bankid = requireBankId(opts.bankid);
  const hits = await countHit(opts.db, `bankid-init:${opts.ip}`, INIT_LIMIT.windowMs);
  if (hits.count > INIT_LIMIT.perAddress) {
    throw tooManyRequests("För många inloggningsförsök. Vänta en minut och försök igen.");
  }
  const publicUrl = new URL(opts.publicUrl);
  let order: Awaited<ReturnType<BankIdApi["auth"]>>;
  try {
    order = await bankid.auth({
      endUserIp: opts.ip,
      userVisibleData: Buffer.from(opts.visibleText?.trim() || DEFAULT_VISIBLE_TEXT, "utf8").toString("base64"),
      // simpleMarkdownV1 is the only format BankID takes.
      ...{ userVisibleDataFormat: "simpleMarkdownV1" },
      ...(opts.autostart && opts.returnPath ? { returnUrl: `${publicUrl.origin}${opts.returnPath}` } : {}),
      web: {
        referringDomain: publicUrl.hostname,
        ...(opts.userAgent ? { userAgent: opts.userAgent.slice(0, 256) } : {}),
        deviceIdentifier: opts.deviceHash,
      },
    });
  } catch (err) {
    throw bankIdFailure(err);
  }
  await opts.db.insert(bankidOrders).values({
    orderRef: order.orderRef,
    autoStartToken: order.autoStartToken,
    qrStartToken: order.qrStartToken,
    qrStartSecret: order.qrStartSecret,
    startedAt: new Date(),
    deviceHash: opts.deviceHash,
    endUserIp: opts.ip,
    autostart: opts.autostart,
    mobile: opts.autostart,
  });
  return { order_ref: order.orderRef, auto_start_token: order.autoStartToken };
}

async function orderOf(db: Db, orderRef: string, deviceHash: string) {
  const [order] = await db
    .select()
    .from(bankidOrders)
    .where(and(eq(bankidOrders.orderRef, orderRef), eq(bankidOrders.deviceHash, deviceHash)));
  // Another browser's order is as unknown as a made-up one.
  if (!order) throw notFound("Okänd inloggning. Starta BankID igen.", "unknown_order");
  return order;
}

export async function currentQr(opts: {
  db: Db;
  orderRef: string;
  deviceHash: string;
}): Promise<{ qr_code_data: string }> {
  const order = await orderOf(opts.db, opts.orderRef, opts.deviceHash);
  if (order.status !== "pending") throw conflict("Inloggningen är redan avslutad.", "order_finished");
  const seconds = (Date.now() - order.startedAt.getTime()) / 1000;
  return { qr_code_data: qrCodeData(order.qrStartToken, order.qrStartSecret, seconds) };
}

async function upsertCustomer(
  tx: Tx,
  keys: ShopperKeys,
  user: { personalNumber: string; name: string; givenName?: string; surname?: string },
) {
  const hash = keyedHash(keys.personalNumberHash, user.personalNumber);
  const [row] = await tx
    .insert(customers)
    .values({
      personalNumberHash: hash,
      personalNumberSealed: encrypt(keys.personalNumberSeal, user.personalNumber),
      name: user.name,
      givenName: user.givenName ?? null,
      surname: user.surname ?? null,
      birthDate: birthDate(user.personalNumber)!,
    })
    .onConflictDoUpdate({
      target: customers.personalNumberHash,
      set: {
        name: user.name,
        givenName: user.givenName ?? null,
        surname: user.surname ?? null,
        lastSignInAt: sql`now()`,
      },
    })
    .returning({ id: customers.id, name: customers.name });
  return row!;
}

export async function collectSignIn(opts: {
  db: Db;
  bankid: BankIdApi | null;
  keys: ShopperKeys;
  orderRef: string;
  deviceHash: string;
}): Promise<CollectResponse> {
  const { db, keys } = opts;
  const order = await orderOf(db, opts.orderRef, opts.deviceHash);
  const mode = { autostart: order.autostart, mobile: order.mobile };
  const answer = (status: "pending" | "failed", hint: string | null, message: string): CollectResponse => ({
    status,
    hint_code: hint,
    message,
  });
  if (order.status === "failed")
    return answer(
      "failed",
      order.hintCode,
      order.errorCode ? errorMessage(order.errorCode) : failedMessage(order.hintCode ?? undefined, mode),
    );
  if (order.status === "complete") throw conflict("Inloggningen är redan slutförd.", "order_finished");

  // Claim the right to ask BankID now; whoever loses the race answers from the stored state.
  const claimed = await db
    .update(bankidOrders)
    .set({ lastCollectAt: sql`now()` })
    .where(
      and(
        eq(bankidOrders.orderRef, order.orderRef),
        eq(bankidOrders.status, "pending"),
        or(
          isNull(bankidOrders.lastCollectAt),
          lt(bankidOrders.lastCollectAt, new Date(Date.now() - COLLECT_INTERVAL_MS)),
        ),
      ),
    )
    .returning({ orderRef: bankidOrders.orderRef });
  if (claimed.length === 0) return answer("pending", order.hintCode, pendingMessage(order.hintCode ?? undefined, mode));

  let result: Awaited<ReturnType<BankIdApi["collect"]>>;
  try {
    result = await requireBankId(opts.bankid).collect(order.orderRef);
  } catch (err) {
    if (err instanceof BankIdError && (err.errorCode === "maintenance" || err.errorCode === "unreachable")) {
      // BankID says it may be retried: keep polling.
      return answer("pending", order.hintCode, errorMessage(err.errorCode));
    }
    const code = err instanceof BankIdError ? err.errorCode : "internalError";
    await db
      .update(bankidOrders)
      .set({ status: "failed", errorCode: code })
      .where(eq(bankidOrders.orderRef, order.orderRef));
    return answer("failed", null, errorMessage(code));
  }

  if (result.status === "pending") {
    await db
      .update(bankidOrders)
      .set({ hintCode: result.hintCode ?? null })
      .where(eq(bankidOrders.orderRef, order.orderRef));
    return answer("pending", result.hintCode ?? null, pendingMessage(result.hintCode, mode));
  }
  if (result.status === "failed") {
    await db
      .update(bankidOrders)
      .set({ status: "failed", hintCode: result.hintCode ?? null })
      .where(eq(bankidOrders.orderRef, order.orderRef));
    return answer("failed", result.hintCode ?? null, failedMessage(result.hintCode, mode));
  }

  const user = result.completionData.user;
  if (!isValidPersonalNumber(user.personalNumber)) {
    await db
      .update(bankidOrders)
      .set({ status: "failed", errorCode: "invalidPersonalNumber" })
      .where(eq(bankidOrders.orderRef, order.orderRef));
    return answer("failed", null, errorMessage(undefined));
  }
  const tokens = await db.transaction(async (tx): Promise<ShopperTokens | null> => {
    const customer = await upsertCustomer(tx, keys, user);
    const issued = await tx
      .update(bankidOrders)
      .set({ status: "complete", hintCode: null, customerId: customer.id, tokensIssuedAt: sql`now()` })
      .where(and(eq(bankidOrders.orderRef, order.orderRef), isNull(bankidOrders.tokensIssuedAt)))
      .returning({ orderRef: bankidOrders.orderRef });
    return issued.length ? issueTokens(tx, keys.jwt, customer) : null;
  });
  if (!tokens) throw conflict("Inloggningen är redan slutförd.", "order_finished");
  return { status: "complete", hint_code: null, message: null, ...tokens };
}

export async function cancelSignIn(opts: {
  db: Db;
  bankid: BankIdApi | null;
  orderRef: string;
  deviceHash: string;
}): Promise<void> {
  const order = await orderOf(opts.db, opts.orderRef, opts.deviceHash);
  if (order.status !== "pending") return;
  await opts.db
    .update(bankidOrders)
    .set({ status: "failed", hintCode: "cancelled" })
    .where(eq(bankidOrders.orderRef, order.orderRef));
  try {
    await requireBankId(opts.bankid).cancel(order.orderRef);
  } catch (err) {
    // The order is over on our side either way; BankID forgets it by itself.
    if (!(err instanceof BankIdError)) throw err;
  }
}

/** DEV_TOOLS only: a fixed test shopper, no BankID. */
export const DEV_SHOPPER = {
  personalNumber: "199206077894",
  name: "Dev Testsson",
  givenName: "Dev",
  surname: "Testsson",
};

export async function devSignIn(opts: { db: Db; keys: ShopperKeys }): Promise<ShopperTokens> {
  return opts.db.transaction(async (tx) => {
    const customer = await upsertCustomer(tx, opts.keys, DEV_SHOPPER);
    return issueTokens(tx, opts.keys.jwt, customer);
  });
}

export async function countCustomers(db: Db): Promise<number> {
  return db.$count(customers);
}
