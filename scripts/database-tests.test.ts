import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { databaseBlindTests } from "./database-tests.ts";

const root = path.resolve(import.meta.dirname, "..");

describe("the server's tests that never see the suite's database", () => {
  const blind = databaseBlindTests(root);

  it("are those that start their own servers on PGlite or meet no database at all", () => {
    expect(blind).toContain("apps/server/src/main.test.ts");
    expect(blind).toContain("apps/server/src/platform/face/face-model.test.ts");
    expect(blind).toContain("apps/server/src/platform/cameras/onvif.test.ts");
  });

  it("leave out every test that reaches the harness, the live cart's harness or the database's choice itself", () => {
    // Through the harness (factories.ts imports it), through a fixtures module, and reading the variable itself.
    expect(blind).not.toContain("apps/server/src/features/cart/cart.kept.test.ts");
    expect(blind).not.toContain("apps/server/src/features/spot-checks/spot-checks.draw.test.ts");
    expect(blind).not.toContain("apps/server/src/db/outage.test.ts");
    expect(blind).not.toContain("apps/server/src/cluster.test.ts");
    expect(blind.every((file) => file.startsWith("apps/server/src/") && file.endsWith(".test.ts"))).toBe(true);
  });

  describe("in a tree of its own", () => {
    const tree = mkdtempSync(path.join(tmpdir(), "glide-blind-"));
    afterAll(() => rmSync(tree, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
      writeFileSync(path.join(tree, file), text);
    };
    write("apps/server/src/test/harness.ts", "export const url = process.env.TEST_DATABASE_URL;\n");
    write("apps/server/src/test/helper.ts", 'export { url } from "./harness.ts";\n');
    write("apps/server/src/units.ts", "export const one = 1;\n");
    write("apps/server/src/direct.test.ts", 'import { url } from "./test/harness.ts";\n');
    write("apps/server/src/two-steps.test.ts", 'import { url } from "./test/helper.ts";\n');
    write("apps/server/src/lazy.test.ts", 'const helper = await import("./test/helper.ts");\n');
    write("apps/server/src/loop-a.test.ts", 'import "./loop-b.ts";\n');
    write("apps/server/src/loop-b.ts", 'import "./loop-a.test.ts";\nimport "./units.ts";\n');
    write("apps/server/src/own.test.ts", "const url = process.env.TEST_DATABASE_URL;\n");
    write("apps/server/src/pure.test.ts", 'import { one } from "./units.ts";\nimport { z } from "zod";\n');

    it("finds a reader however many imports lie between, lazy ones too, and ends on a loop", () => {
      expect(databaseBlindTests(tree)).toEqual(["apps/server/src/loop-a.test.ts", "apps/server/src/pure.test.ts"]);
    });
  });
});
