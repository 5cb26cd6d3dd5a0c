/** Keys the app keeps in the browser (localStorage). The sidebar cookie name is in contracts `UI`. */
export const STORAGE_KEYS = {
  theme: "theme",
} as const;
