import { COUNTRIES } from "@glide/contracts";
import { useId } from "react";
import { Label } from "../../ui/label.tsx";
import { FilterSelect } from "../shell/filter-controls.tsx";

interface CountryFilterProps {
  country: string;
  onCountryChange: (country: string) => void;
}

/** The country a Pricing tab shows (kept in the URL by usePricingParams). */
export function CountryFilter({ country, onCountryChange }: CountryFilterProps) {
  const countryId = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={countryId}>Country</Label>
      <FilterSelect
        id={countryId}
        className="sm:w-56"
        value={country}
        onChange={(event) => onCountryChange(event.target.value)}
      >
        {Object.entries(COUNTRIES).map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </FilterSelect>
    </div>
  );
}
