import { useNavigate } from "react-router";
import { Button } from "../ui/button.tsx";

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-7xl font-bold text-primary">404</p>
      <h1 className="text-2xl font-semibold">Page Not Found</h1>
      <p className="max-w-md text-muted-foreground">
        Sorry, the page you are looking for doesn't exist. It may have been moved or deleted.
      </p>
      <Button onClick={() => void navigate("/")}>Go Home</Button>
    </main>
  );
}
