/**
 * BankID's recommended user messages (RFA), in Swedish, chosen by hint code
 * or error code. Codes BankID adds later fall back to RFA21 (pending) or
 * RFA22 (failed, errors), as its rules say.
 */
export const RFA = {
  RFA1: "Starta BankID-appen.",
  RFA3: "Åtgärden avbröts. Försök igen.",
  RFA4: "En identifiering eller underskrift pågår redan för ditt personnummer. Försök igen.",
  RFA5: "Något gick fel. Försök igen.",
  RFA6: "Åtgärden avbröts.",
  RFA8: "BankID-appen svarar inte. Kontrollera att den är startad och att du har internetanslutning. Försök sedan igen.",
  RFA9: "Skriv in din säkerhetskod i BankID-appen och välj Identifiera eller Skriv under.",
  RFA13: "Försöker starta BankID-appen.",
  RFA15A:
    "Söker efter BankID. Säkerställ att du har ett giltigt BankID på den här datorn. Om du har ett BankID på kort, sätt in kortet i kortläsaren.",
  RFA15B: "Söker efter BankID. Säkerställ att du har ett giltigt BankID på den här enheten.",
  RFA16: "Ditt BankID är för gammalt eller spärrat. Använd ett annat BankID eller skaffa ett nytt hos din bank.",
  RFA17A: "Du verkar inte ha BankID-appen/programmet. Installera den och skaffa ett BankID hos din bank.",
  RFA17B: "Misslyckades att läsa av QR-koden. Starta BankID-appen och läs av QR-koden.",
  RFA21: "En identifiering eller underskrift pågår.",
  RFA22: "Något gick fel. Försök igen.",
  RFA23: "Fotografera och läs av din ID-handling med BankID-appen.",
} as const;

/** How the order was started: the app opened on this device (autostart) or the QR code shown. */
export type StartMode = { autostart: boolean; mobile: boolean };

export function pendingMessage(hintCode: string | undefined, mode: StartMode): string {
  switch (hintCode) {
    case "outstandingTransaction":
      return mode.autostart ? RFA.RFA13 : RFA.RFA1;
    case "noClient":
      return RFA.RFA1;
    case "started":
      return mode.mobile ? RFA.RFA15B : RFA.RFA15A;
    case "userSign":
      return RFA.RFA9;
    case "userMrtd":
      return RFA.RFA23;
    default:
      return RFA.RFA21;
  }
}

export function failedMessage(hintCode: string | undefined, mode: StartMode): string {
  switch (hintCode) {
    case "expiredTransaction":
      return RFA.RFA8;
    case "certificateErr":
      return RFA.RFA16;
    case "userCancel":
      return RFA.RFA6;
    case "cancelled":
      return RFA.RFA3;
    case "startFailed":
      return mode.autostart ? RFA.RFA17A : RFA.RFA17B;
    default:
      return RFA.RFA22;
  }
}

export function errorMessage(errorCode: string | undefined): string {
  switch (errorCode) {
    case "alreadyInProgress":
      return RFA.RFA4;
    case "requestTimeout":
    case "internalError":
    case "maintenance":
      return RFA.RFA5;
    default:
      return RFA.RFA22;
  }
}
