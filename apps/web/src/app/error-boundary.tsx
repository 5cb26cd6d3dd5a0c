import { Component, type ReactNode } from "react";
import { useRouteError } from "react-router";
import { CrashScreen } from "./crash-screen.tsx";

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

/** Catches crashes outside the router (providers); the router has its own boundary below. */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, hasError: true };
  }

  render() {
    return this.state.hasError ? <CrashScreen error={this.state.error} /> : this.props.children;
  }
}

/** The router's error boundary: render crashes in any route, and failed lazy chunk loads. */
export function RouteErrorScreen() {
  return <CrashScreen error={useRouteError()} />;
}
