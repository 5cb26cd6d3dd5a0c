import { Button } from "../ui/button.tsx";

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  try {
    return JSON.stringify(error, null, 2) ?? String(error);
  } catch {
    return String(error);
  }
}

/** Shown when rendering crashes (spec §2 fallback screen). */
export function CrashScreen({ error }: { error: unknown }) {
  return (
    <main className="mx-auto flex min-h-svh max-w-3xl flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold">An unexpected error occurred.</h1>
      <pre className="max-h-[50svh] overflow-auto rounded-md border bg-muted p-4 text-xs whitespace-pre-wrap">
        {describe(error)}
      </pre>
      <div>
        <Button onClick={() => window.location.reload()}>Reload Page</Button>
      </div>
    </main>
  );
}
