import { PlaceholderPage } from "../shell/placeholder-page.tsx";

export default function CamerasPage() {
  return <PlaceholderPage title="Camera Management" />;
}
