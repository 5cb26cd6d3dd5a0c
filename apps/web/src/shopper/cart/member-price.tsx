import clsx from "clsx";
import { Link, useLocation } from "react-router";
import { membershipPageFor } from "../card/return-path.ts";
import { formatKr } from "../lib/money.ts";
import { sv } from "../sv.ts";

/*
 * What a member would pay, shown to a shopper who is none: the members'
 * price under a line, and the members' total by the cart's own with the way
 * to join (the card page's membership section, then back to this page).
 * Nothing for a member, nor for a copy kept offline from before members
 * (it lacks the fields).
 */

/**
 * "Medlemspris 39,90 kr/st" under a line, in the colour of a saving. A screen
 * reader hears "Medlemspris 39,90 kr per styck" ("/st" is read as a slash).
 */
export function MemberPrice({ price }: { price: number | null | undefined }) {
  if (price === null || price === undefined) return null;
  const amount = formatKr(price);
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
      <span aria-hidden="true" className="rounded bg-success-muted px-1.5 font-semibold text-success">
        {sv.cart.memberPrice}
      </span>
      <span aria-hidden="true" className="font-semibold text-success tabular-nums">
        {amount}/st
      </span>
      <span className="sr-only">{sv.cart.memberPriceSpoken(amount)}</span>
    </p>
  );
}

/** The way to the membership section from this page, and back here after. */
function useMembershipPage(): string {
  return membershipPageFor(useLocation().pathname);
}

/** The sheet's "Som medlem" row under "Totalt", with "Bli medlem". */
export function MemberTotal({ total, className }: { total: number | null | undefined; className?: string }) {
  const to = useMembershipPage();
  if (total === null || total === undefined) return null;
  return (
    <div className={clsx("flex flex-col gap-2 rounded-xl bg-success-muted p-3 text-success", className)}>
      <p className="flex items-baseline justify-between gap-3 font-semibold">
        <span>{sv.cart.memberTotal}</span>
        <span data-amount className="whitespace-nowrap tabular-nums">
          {formatKr(total)}
        </span>
      </p>
      <Link to={to} className="inline-flex min-h-11 items-center self-start font-semibold underline underline-offset-4">
        {sv.cart.becomeMember}
      </Link>
    </div>
  );
}

/** The total bar's "Som medlem: 89,90 kr" under the total: itself the way to join, heard as such. */
export function MemberTotalLink({ total }: { total: number | null | undefined }) {
  const to = useMembershipPage();
  if (total === null || total === undefined) return null;
  return (
    <Link
      to={to}
      data-testid="member-total"
      className="inline-flex min-h-6 items-center whitespace-nowrap text-sm font-semibold text-success underline underline-offset-4 tabular-nums"
    >
      <span aria-hidden="true">{sv.cart.memberTotalShort(formatKr(total))}</span>
      {/* One piece of text, so it is heard without a pause in the middle. */}
      <span className="sr-only">{`${sv.cart.memberTotalShort(formatKr(total))}. ${sv.cart.becomeMember}`}</span>
    </Link>
  );
}
