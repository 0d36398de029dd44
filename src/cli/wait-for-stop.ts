/** Resolve on SIGINT/SIGTERM; with `onEnter`, each Enter on the terminal calls it (e.g. a new sign-in link). */
export function waitForStop(onEnter?: () => void): Promise<void> {
  return new Promise((resolve) => {
    const onData = () => onEnter?.();
    if (onEnter) {
      process.stdin.on("data", onData);
      process.stdin.resume();
    }
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      if (onEnter) {
        process.stdin.off("data", onData);
        process.stdin.pause();
      }
      console.log("langgraph-memory: stopping");
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
