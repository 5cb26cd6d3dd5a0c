import { useEffect, useState } from "react";
import { useLocation, useNavigationType, useSearchParams } from "react-router";

/**
 * A text filter kept in the URL (?key=value). The input reads local state so typing stays
 * instant while router updates run as transitions; back/forward navigation re-syncs it.
 */
export function useSearchParam(key: string): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const urlValue = params.get(key) ?? "";
  const [value, setValue] = useState(urlValue);
  const navigationType = useNavigationType();
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-sync only when history moves, not on our own writes.
  useEffect(() => {
    if (navigationType === "POP") setValue(urlValue);
  }, [location.key]);

  const update = (next: string) => {
    setValue(next);
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        if (next) copy.set(key, next);
        else copy.delete(key);
        return copy;
      },
      { replace: true },
    );
  };

  return [value, update];
}
