/*
 * The shopper app's logger: the one place that writes to the console.
 * Polling failures are logged, not shown (shopper-app.md §8).
 */
export const log = {
  warn(message: string, detail?: unknown): void {
    // biome-ignore lint/suspicious/noConsole: this module is the logger.
    console.warn(`[glide] ${message}`, ...(detail === undefined ? [] : [detail]));
  },
};
