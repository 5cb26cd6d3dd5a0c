import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client.ts";

/*
 * Vitest's global setup for the PostgreSQL pass: one database with every
 * migration applied, made once before the test files run, which each file's
 * database is then copied from (CREATE DATABASE … TEMPLATE, a file copy in
 * the server) instead of being migrated again. Dropped when the run ends.
 * Without TEST_DATABASE_URL (the PGlite pass) it does nothing.
 */

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template database's name, on TEST_DATABASE_URL's server; "" when there is none. */
    postgresTemplate: string;
  }
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  project.provide("postgresTemplate", "");
  if (!serverUrl) return undefined;
  const name = `glide_test_template_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), logger: pino({ level: "silent" }), poolSize: 1 });
  await database.close();
  project.provide("postgresTemplate", name);
  return () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
}
