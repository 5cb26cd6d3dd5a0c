import { MULTI_BUY_OFFERS_PAGE_SIZE, multiBuyDealText } from "@glide/contracts";
import { DatedRulesView } from "./dated-rules-view.tsx";
import { OfferDialog } from "./offer-dialog.tsx";
import { OfferList } from "./offer-list.tsx";
import { listQueryOf, useDatedRuleParams } from "./use-dated-rule-params.ts";
import { useDeleteOffer, useOffers } from "./use-offers.ts";

/**
 * The Offers tab: multi-buy offers by store and status, searched by label or
 * product; platform admins keep every offer, store admins their stores' (and
 * read the chain-wide ones), as on the Campaigns tab. Filters, search and
 * page live in the URL.
 */
export function OffersView() {
  const params = useDatedRuleParams(MULTI_BUY_OFFERS_PAGE_SIZE.default);
  const list = useOffers(listQueryOf(params));
  const remove = useDeleteOffer();
  return (
    <DatedRulesView
      noun={{ one: "offer", many: "offers" }}
      searchPlaceholder="Search by label, product name or SKU..."
      params={params}
      list={list}
      remove={remove}
      List={OfferList}
      Dialog={OfferDialog}
      deleting={(offer) => `${offer.label} (${multiBuyDealText(offer)})`}
    />
  );
}
