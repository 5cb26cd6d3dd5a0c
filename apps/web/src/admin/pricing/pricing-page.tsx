import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { PageHeader } from "../shell/page-header.tsx";
import { CampaignsView } from "./campaigns-view.tsx";
import { OffersView } from "./offers-view.tsx";
import { PantAmountsView } from "./pant-amounts-view.tsx";
import { PriceGroupsView } from "./price-groups-view.tsx";
import { StorePricesView } from "./store-prices-view.tsx";
import { usePricingParams } from "./use-pricing-params.ts";
import { VatRatesView } from "./vat-rates-view.tsx";

/**
 * Pricing: one tab per part of what a sale costs. VAT rates and pant come first;
 * store prices, campaigns and multi-buy offers follow as tabs of their own (PRICING_TABS).
 * The tabs share the country the URL names.
 */
export default function PricingPage() {
  const { tab, setTab, country, setCountry, store, setStore, group, setGroup } = usePricingParams();
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader title="Pricing" description="What sales cost, the VAT they are taxed at and the pant they carry" />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Pricing sections" className="sm:w-fit">
          <TabsTrigger value="vat">VAT rates</TabsTrigger>
          <TabsTrigger value="pant">Pant</TabsTrigger>
          <TabsTrigger value="store-prices">Store prices</TabsTrigger>
          <TabsTrigger value="price-groups">Price groups</TabsTrigger>
          <TabsTrigger value="campaigns">Campaigns</TabsTrigger>
          <TabsTrigger value="offers">Offers</TabsTrigger>
        </TabsList>
        <TabsContent value="vat">
          {tab === "vat" ? <VatRatesView country={country} onCountryChange={setCountry} /> : null}
        </TabsContent>
        <TabsContent value="pant">
          {tab === "pant" ? <PantAmountsView country={country} onCountryChange={setCountry} /> : null}
        </TabsContent>
        <TabsContent value="store-prices">
          {tab === "store-prices" ? <StorePricesView store={store} onStoreChange={setStore} /> : null}
        </TabsContent>
        <TabsContent value="price-groups">
          {tab === "price-groups" ? <PriceGroupsView group={group} onGroupChange={setGroup} /> : null}
        </TabsContent>
        <TabsContent value="campaigns">{tab === "campaigns" ? <CampaignsView /> : null}</TabsContent>
        <TabsContent value="offers">{tab === "offers" ? <OffersView /> : null}</TabsContent>
      </Tabs>
    </div>
  );
}
