/**
 * A first-come first-served async mutex over PGlite's one session. The owner's own queries and
 * transactions take it for their length, and a socket client takes it from its first message
 * until PGlite is idle again (ReadyForQuery `I`: its transaction or Parse…Sync exchange is over),
 * so nobody's statement ever runs inside somebody else's transaction.
 *
 * @example
 * const gate = new SessionGate();
 * await gate.run(() => pglite.query("SELECT 1"));
 */
export class SessionGate {
  private tail: Promise<void> = Promise.resolve();

  /** Wait for the session; resolves with the function that hands it on (safe to call twice). */
  acquire(): Promise<() => void> {
    let hand!: () => void;
    const mine = new Promise<void>((resolve) => (hand = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => mine);
    let released = false;
    return previous.then(() => () => {
      if (released) return;
      released = true;
      hand();
    });
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
