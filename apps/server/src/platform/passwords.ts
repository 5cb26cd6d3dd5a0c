import { hash, verify } from "@node-rs/argon2";

/** Argon2id at OWASP's minimum: 19 MiB memory, 2 iterations, 1 lane. */
// algorithm 2 is Argon2id (a const enum in the library's types).
const params = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, params);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifying against this costs the same as a real check, so unknown e-mails take as long as wrong passwords. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password-only-for-timing");
  await verifyPassword(await dummyHash, password);
}
