export interface ProgressBarOptions {
  stream?: NodeJS.WriteStream;
  label: string;
  width?: number;
}

/**
 * A one-line bar on a terminal; on a pipe or CI log (no TTY) a plain line at every tenth of the
 * way instead of hundreds of carriage returns.
 */
export class ProgressBar {
  private readonly stream: NodeJS.WriteStream;
  private readonly started = performance.now();
  private lastDecile = -1;
  private lastDraw = 0;
  private lastDetail = '';

  constructor(private readonly options: ProgressBarOptions) {
    this.stream = options.stream ?? process.stderr;
  }

  update(done: number, total: number, detail: string): void {
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const elapsed = (performance.now() - this.started) / 1000;
    const eta =
      fraction > 0 && fraction < 1 ? ` eta ${((elapsed / fraction) * (1 - fraction)).toFixed(0)}s` : '';
    if (this.stream.isTTY) {
      const now = performance.now();
      if (now - this.lastDraw < 50 && done < total) return;
      this.lastDraw = now;
      const width = this.options.width ?? 24;
      const filled = Math.round(fraction * width);
      const columns = this.stream.columns ?? 100;
      const line = `${this.options.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${detail}${eta}`;
      this.stream.write(`\r\x1b[K${line.slice(0, columns - 1)}`);
      return;
    }
    const decile = Math.floor(fraction * 10);
    // At 100% a changed detail is printed again: a run's last writes can land after its last file.
    if (decile === this.lastDecile && !(fraction === 1 && detail !== this.lastDetail)) return;
    this.lastDecile = decile;
    this.lastDetail = detail;
    this.stream.write(
      `${this.options.label} ${Math.round(fraction * 100)}% (${done}/${total}) ${detail}${eta}\n`,
    );
  }

  finish(): void {
    if (this.stream.isTTY) this.stream.write('\r\x1b[K');
  }
}
