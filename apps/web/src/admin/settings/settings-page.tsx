import { PlaceholderPage } from "../shell/placeholder-page.tsx";

export default function SettingsPage() {
  return <PlaceholderPage title="System Settings" />;
}
