/**
 * Swedish organisation numbers: ten digits (NNNNNN-NNNN), the last a Luhn
 * check digit over the first nine. Sole traders use their personal number,
 * which follows the same rule, so we accept any ten digits that pass it.
 */
export function isValidSwedishOrganisationNumber(input: string): boolean {
  const digits = input.replace(/^(\d{6})-?(\d{4})$/, "$1$2");
  return /^\d{10}$/.test(digits) && luhnValid(digits);
}

/** The Luhn rule Swedish organisation and personal numbers share: the last of ten digits checks the nine before. */
export function luhnValid(tenDigits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let d = Number(tenDigits[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10 === Number(tenDigits[9]);
}

/** "5560360793" → "556036-0793"; anything else unchanged. */
export function formatSwedishOrganisationNumber(input: string): string {
  const m = /^(\d{6})-?(\d{4})$/.exec(input.trim());
  return m ? `${m[1]}-${m[2]}` : input.trim();
}
