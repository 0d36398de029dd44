/**
 * Runs one thread's writes in this process one after another. A put and a putWrites number their
 * new items from what the thread cache knows; running them in turn keeps that knowledge exact, and
 * lets a put find the items a write just stored. LangGraph already chains a thread's puts; writes
 * of parallel tasks and a put still in flight (durability "async") are what this orders.
 */
export class ThreadLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(threadId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(threadId) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(threadId, tail);
    void tail.then(() => {
      if (this.tails.get(threadId) === tail) this.tails.delete(threadId);
    });
    return result;
  }
}
