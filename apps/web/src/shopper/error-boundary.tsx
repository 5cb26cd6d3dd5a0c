import { Component, type ReactNode } from "react";
import { buttonClass } from "./components/button.ts";
import { sv } from "./sv.ts";

interface State {
  failed: boolean;
}

/** A crash anywhere in the shopper app shows a Swedish page with a way out, not a blank screen. */
export class ShopperErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="mx-auto flex min-h-svh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
        <h1 className="text-2xl font-bold">{sv.crash.title}</h1>
        <p className="text-muted-foreground">{sv.crash.text}</p>
        <button type="button" className={buttonClass("primary")} onClick={() => window.location.reload()}>
          {sv.crash.reload}
        </button>
      </main>
    );
  }
}
