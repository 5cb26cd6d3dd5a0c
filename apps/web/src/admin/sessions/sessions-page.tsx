import { PlaceholderPage } from "../shell/placeholder-page.tsx";

export default function SessionsPage() {
  return <PlaceholderPage title="Sessions" />;
}
