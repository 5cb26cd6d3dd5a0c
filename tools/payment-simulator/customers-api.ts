import { invalidParam, noSuch, refused } from "./errors.ts";
import { attach, customerParam, paymentMethodParam } from "./lookups.ts";
import { type Ctx, type Customer, newId, type Reply } from "./objects.ts";
import { Params } from "./params.ts";
import { customerJson, expand } from "./render.ts";

/** Customers: who saved cards belong to. */

const CUSTOMER_EXPAND = ["invoice_settings.default_payment_method"];

export function createCustomer(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["email", "name", "description", "metadata", "payment_method", "invoice_settings"]);
  const paths = p.expand(CUSTOMER_EXPAND);
  const email = p.nullableStr("email") ?? null;
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw invalidParam(`Invalid email address: ${email}`, "email");
  const customer: Customer = {
    id: newId("cus", 14),
    created: ctx.store.seconds(),
    email,
    name: p.nullableStr("name") ?? null,
    description: p.nullableStr("description") ?? null,
    metadata: p.metadata() ?? {},
    defaultPaymentMethod: null,
    deleted: false,
  };
  const pmId = p.str("payment_method");
  const pm = pmId ? paymentMethodParam(ctx.store, pmId) : null;
  ctx.store.customers.set(customer.id, customer);
  if (pm) attach(pm, customer);
  updateDefault(ctx, p, customer);
  return { status: 200, body: expand(ctx.store, customerJson(customer), paths) };
}

function updateDefault(ctx: Ctx, p: Params, customer: Customer) {
  const settings = p.hash("invoice_settings");
  const pmId = settings?.default_payment_method;
  if (pmId === undefined) return;
  if (typeof pmId !== "string") throw invalidParam("Invalid string", "invoice_settings[default_payment_method]");
  if (pmId === "") {
    customer.defaultPaymentMethod = null;
    return;
  }
  const pm = paymentMethodParam(ctx.store, pmId, "invoice_settings[default_payment_method]");
  if (pm.customer !== customer.id) {
    throw refused(`The PaymentMethod ${pm.id} is not attached to this customer.`, {
      param: "invoice_settings[default_payment_method]",
    });
  }
  customer.defaultPaymentMethod = pm.id;
}

export function retrieveCustomer(ctx: Ctx): Reply {
  const paths = new Params(ctx.form, []).expand(CUSTOMER_EXPAND);
  const c = ctx.store.customers.get(ctx.id);
  if (!c) throw noSuch("customer", ctx.id);
  return { status: 200, body: expand(ctx.store, customerJson(c), paths) };
}

export function updateCustomer(ctx: Ctx): Reply {
  const p = new Params(ctx.form, ["email", "name", "description", "metadata", "invoice_settings"]);
  const paths = p.expand(CUSTOMER_EXPAND);
  const c = customerParam(ctx.store, ctx.id, "id");
  const email = p.nullableStr("email");
  if (email !== undefined) c.email = email;
  const name = p.nullableStr("name");
  if (name !== undefined) c.name = name;
  const description = p.nullableStr("description");
  if (description !== undefined) c.description = description;
  const metadata = p.metadata();
  if (metadata !== undefined) c.metadata = Object.keys(metadata).length ? { ...c.metadata, ...metadata } : {};
  updateDefault(ctx, p, c);
  return { status: 200, body: expand(ctx.store, customerJson(c), paths) };
}

export function deleteCustomer(ctx: Ctx): Reply {
  new Params(ctx.form, []);
  const c = customerParam(ctx.store, ctx.id, "id");
  c.deleted = true;
  for (const pm of ctx.store.paymentMethods.values()) {
    if (pm.customer === c.id) {
      pm.customer = null;
      pm.spent = true;
    }
  }
  return { status: 200, body: customerJson(c) };
}
