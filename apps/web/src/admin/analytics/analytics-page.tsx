import { PlaceholderPage } from "../shell/placeholder-page.tsx";

export default function AnalyticsPage() {
  return <PlaceholderPage title="Analytics" />;
}
