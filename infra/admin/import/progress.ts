/**
 * Import progress on stderr (stdout is reserved for the final JSON). On a terminal: one bar redrawn in place,
 * at most 10 times a second, with rows, rows/s and the ETA. Otherwise (a pipe, a log file, CI): a plain line
 * every few seconds and a last one at the end. The share done is the share of the file's bytes read, which
 * is known without counting rows first.
 */
export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

const BAR_WIDTH = 24;
const TTY_INTERVAL_MS = 100;
const PLAIN_INTERVAL_MS = 5_000;

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

export class Progress {
  private rows = 0;
  private fraction = 0;
  private lastDraw = 0;
  private readonly started: number;
  private drewBar = false;

  constructor(
    private readonly sink: ProgressSink,
    private readonly label: string,
    private readonly now: () => number = () => performance.now(),
    private readonly plainIntervalMs = PLAIN_INTERVAL_MS,
  ) {
    this.started = now();
    this.lastDraw = this.started;
  }

  /** `rows` handled so far, `fraction` of the file read (0–1). */
  update(rows: number, fraction: number): void {
    this.rows = rows;
    this.fraction = Math.min(1, Math.max(0, fraction));
    const t = this.now();
    if (t - this.lastDraw < (this.sink.isTTY ? TTY_INTERVAL_MS : this.plainIntervalMs)) return;
    this.lastDraw = t;
    this.draw(false);
  }

  finish(rows: number): void {
    this.rows = rows;
    this.fraction = 1;
    this.draw(true);
  }

  private draw(final: boolean): void {
    const elapsed = (this.now() - this.started) / 1000;
    const rate = elapsed > 0 ? this.rows / elapsed : 0;
    const eta = this.fraction > 0 ? (elapsed * (1 - this.fraction)) / this.fraction : Number.NaN;
    const percent = `${Math.floor(this.fraction * 100)}%`.padStart(4);
    const counts = `${this.rows.toLocaleString('en-US')} rows  ${Math.round(rate).toLocaleString('en-US')} rows/s`;
    if (this.sink.isTTY) {
      const tail = final ? `in ${formatDuration(elapsed)}` : `ETA ${formatDuration(eta)}`;
      const text = `${percent}  ${counts}  ${tail}`;
      // A narrow terminal loses bar before numbers; the line never wraps, or redrawing in place breaks.
      const width = (this.sink.columns || 120) - 1; // 0 when the terminal reports no size
      const barWidth = Math.min(BAR_WIDTH, width - this.label.length - text.length - 2);
      const filled = Math.round(this.fraction * Math.max(0, barWidth));
      const bar = barWidth >= 5 ? ` ${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}` : '';
      this.sink.write(`\r${`${this.label}${bar} ${text}`.slice(0, width)}\x1b[K${final ? '\n' : ''}`);
      this.drewBar = !final;
      return;
    }
    const tail = final ? `done in ${formatDuration(elapsed)}` : `ETA ${formatDuration(eta)}`;
    this.sink.write(`${this.label}: ${percent.trim()}  ${counts}  ${tail}\n`);
  }

  /** Ends a half-drawn bar so a following message starts on its own line. */
  interrupt(): void {
    if (this.drewBar) this.sink.write('\n');
    this.drewBar = false;
  }
}
