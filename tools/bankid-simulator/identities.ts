import { isPersonalNumber } from "./personal-number.ts";

export type Identity = { personalNumber: string; name: string; givenName: string; surname: string };

/** The people the simulator's app can sign in as; all have valid personal numbers. */
export const TEST_IDENTITIES: Identity[] = [
  { personalNumber: "198112189876", name: "Anna Andersson", givenName: "Anna", surname: "Andersson" },
  { personalNumber: "199001012385", name: "Erik Svensson", givenName: "Erik", surname: "Svensson" },
  { personalNumber: "200811211234", name: "Maja Lind", givenName: "Maja", surname: "Lind" },
  { personalNumber: "197503154564", name: "Lars Nilsson", givenName: "Lars", surname: "Nilsson" },
];

/** Who approves: a test person, someone given by number and name, or (nothing given) the first test person. */
export function approvingIdentity(body: Record<string, unknown>): Identity | { error: string } {
  if (body.personalNumber === undefined) return TEST_IDENTITIES[0]!;
  if (!isPersonalNumber(body.personalNumber)) return { error: "invalid personalNumber" };
  const known = TEST_IDENTITIES.find((i) => i.personalNumber === body.personalNumber);
  if (known) return known;
  if (typeof body.name !== "string" || !body.name.trim()) return { error: "name is required for this personalNumber" };
  return {
    personalNumber: body.personalNumber,
    name: body.name,
    givenName: String(body.givenName ?? body.name.split(" ")[0]),
    surname: String(body.surname ?? body.name.split(" ").slice(1).join(" ")),
  };
}
