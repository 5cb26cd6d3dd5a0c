import type { Config } from "../config.ts";
import type { Database, Db } from "../db/client.ts";
import type { BankIdApi } from "./bankid/client.ts";
import type { DoorController } from "./door.ts";

// Features add their own request fields beside the hooks that set them (admin-auth.hooks.ts, shopper-auth.hooks.ts).
declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    bankid: BankIdApi | null;
    door: DoorController;
  }
}
