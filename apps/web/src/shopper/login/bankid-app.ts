import { shopperApi } from "../lib/client.ts";
import { log } from "../lib/log.ts";

/** BankID's universal link, for when the server cannot be asked. */
const UNIVERSAL_LINK = "https://app.bankid.com/";

let appUrl: Promise<string> | undefined;

/**
 * Where the BankID app is on this device, as the server says: BankID's
 * universal link in production, the simulator's app page in the demo. Asked
 * once per page load; the answer does not change while the server runs.
 */
export function bankIdAppBase(): Promise<string> {
  appUrl ??= shopperApi.config().then(
    // A server from before the field existed (or one that does not say) means BankID's own app.
    (config) => config.bankid_app_url || UNIVERSAL_LINK,
    (error: unknown) => {
      log.warn("Could not ask where the BankID app is", error);
      return UNIVERSAL_LINK;
    },
  );
  return appUrl;
}

/** The app's start link; redirect=null because the server already gave BankID the return address. */
export function bankIdAppLink(base: string, autoStartToken: string): string {
  const url = new URL(base);
  url.searchParams.set("autostarttoken", autoStartToken);
  url.searchParams.set("redirect", "null");
  return url.href;
}
