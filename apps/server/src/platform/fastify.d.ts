import type { Config } from "../config.ts";
import type { Database, Db } from "../db/client.ts";
import type { AdminActor } from "../features/admin-auth/admin-auth.service.ts";
import type { ShopperKeys } from "../features/shopper-auth/shopper-auth.service.ts";
import type { BankIdApi } from "./bankid/client.ts";
import type { DoorController } from "./door.ts";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    bankid: BankIdApi | null;
    door: DoorController;
    shopperKeys: ShopperKeys;
  }
  interface FastifyRequest {
    admin: AdminActor | null;
    /** The signed-in shopper's customer id, set by requireShopper. */
    shopperId: string | null;
  }
}
