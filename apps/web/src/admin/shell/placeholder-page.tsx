import { PageHeader } from "./page-header.tsx";

/** Screens whose content is not built yet show their title and "Coming soon...". */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <p className="text-muted-foreground">Coming soon...</p>
    </div>
  );
}
