/**
 * A one-line progress bar on stderr for long CLI jobs (re-embedding, benchmark loads). Redraws at
 * most every 100 ms; when stderr is not a terminal it prints a plain line every 10%.
 *
 * @example
 * const bar = new ProgressBar("re-embedding", total);
 * for (…) bar.update(done);
 * bar.done();
 */
export class ProgressBar {
  private lastDraw = 0;
  private lastDecile = -1;
  private readonly started = Date.now();
  private readonly tty: boolean;

  constructor(
    readonly label: string,
    readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly width = 30,
  ) {
    this.tty = Boolean(stream.isTTY);
  }

  update(done: number): void {
    const now = Date.now();
    if (this.tty) {
      if (now - this.lastDraw < 100 && done < this.total) return;
      this.lastDraw = now;
      this.stream.write(`\r${this.render(done)}`);
    } else {
      const decile = this.total === 0 ? 10 : Math.floor((done / this.total) * 10);
      if (decile === this.lastDecile) return;
      this.lastDecile = decile;
      this.stream.write(`${this.render(done)}\n`);
    }
  }

  done(): void {
    this.lastDraw = 0;
    this.update(this.total);
    if (this.tty) this.stream.write("\n");
  }

  /** `label [#####-----] 512/1024 50% 3s` */
  render(done: number): string {
    const share = this.total === 0 ? 1 : Math.min(1, done / this.total);
    const filled = Math.round(share * this.width);
    const secs = Math.round((Date.now() - this.started) / 1000);
    return `${this.label} [${"#".repeat(filled)}${"-".repeat(this.width - filled)}] ${done}/${this.total} ${Math.round(share * 100)}% ${secs}s`;
  }
}
