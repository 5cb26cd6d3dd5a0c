import { isIP } from "node:net";
import { isPersonalNumber } from "./personal-number.ts";

/** An RP API error answer: BankID's { errorCode, details } with its HTTP status. */
export type ErrorReply = { status: number; errorCode: string; details: string };

export const invalid = (details: string): ErrorReply => ({ status: 400, errorCode: "invalidParameters", details });

/** What BankID refuses in an /auth or /sign body, as 400 invalidParameters. */
export function validateAuth(body: Record<string, unknown>): ErrorReply | null {
  if (typeof body.endUserIp !== "string" || isIP(body.endUserIp) === 0) return invalid("Invalid endUserIp");
  if (body.userVisibleData !== undefined) {
    if (typeof body.userVisibleData !== "string" || !/^[A-Za-z0-9+/]+=*$/.test(body.userVisibleData)) {
      return invalid("Invalid userVisibleData");
    }
    if (body.userVisibleDataFormat !== undefined && body.userVisibleDataFormat !== "simpleMarkdownV1") {
      return invalid("Invalid userVisibleDataFormat");
    }
  }
  if (
    body.returnUrl !== undefined &&
    (typeof body.returnUrl !== "string" || body.returnUrl.length < 1 || body.returnUrl.length > 512)
  ) {
    return invalid("Invalid returnUrl");
  }
  if (body.requirement !== undefined) {
    const requirement = body.requirement as Record<string, unknown>;
    if (typeof requirement !== "object" || requirement === null || Array.isArray(requirement)) {
      return invalid("Invalid requirement");
    }
    if (requirement.personalNumber !== undefined && !isPersonalNumber(requirement.personalNumber)) {
      return invalid("Invalid personalNumber");
    }
  }
  if (body.web !== undefined && body.app !== undefined) return invalid("Send web or app, not both");
  if (body.web !== undefined) {
    const web = body.web as Record<string, unknown>;
    if (typeof web !== "object" || web === null || Object.keys(web).length === 0) return invalid("Invalid web");
    if (web.referringDomain !== undefined && !/^[0-9a-z.-]+$/.test(String(web.referringDomain))) {
      return invalid("Invalid web.referringDomain");
    }
  }
  return null;
}
