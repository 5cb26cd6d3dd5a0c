import {
  type MultiBuyOffer,
  type MultiBuyOfferInput,
  type multiBuyOfferListQuerySchema,
  multiBuyOfferListSchema,
  multiBuyOfferSchema,
} from "@glide/contracts";
import type { z } from "zod";
import { datedRuleHooks } from "./use-dated-rules.ts";

export type OfferListQuery = Partial<z.output<typeof multiBuyOfferListQuerySchema>>;

const offers = datedRuleHooks<MultiBuyOffer, MultiBuyOfferInput, OfferListQuery>({
  key: "offers",
  path: "/api/v1/offers",
  schema: multiBuyOfferSchema,
  listSchema: multiBuyOfferListSchema,
});

export const offerKeys = offers.keys;
/** One page of offers, the latest first day first, with the number of all matches. */
export const useOffers = offers.useList;
export const useCreateOffer = offers.useCreate;
export const useUpdateOffer = offers.useUpdate;
export const useDeleteOffer = offers.useDelete;
