/**
 * One line per download the gate lets through (a 302), written to stdout — which the Lambda runtime ships to
 * CloudWatch Logs after the answer, asynchronously — so counting a download costs the gate no call and no
 * round trip. The lines are summed per app and UTC day by the aggregator (shared/domain/stats/download-counts.ts):
 * deployed, from the gate's log group; locally, `npm start` registers a sink here instead of stdout, and its
 * background jobs hand what it collected to the same aggregator every few seconds.
 */

/** What a download line says: whose app, which one, and when (Unix seconds). */
export interface DownloadLine {
  tenant: string;
  owner: string;
  source: string;
  app: number;
  at: number;
}

/** The field a download line is known by (the log subscription's filter matches it). */
export const DOWNLOAD_FIELD = 'download';

let sink: ((line: DownloadLine) => void) | undefined;

/** The local runtime's collector of download lines, which then takes them instead of stdout (undefined: stdout, as deployed). */
export function setDownloadSink(collect: ((line: DownloadLine) => void) | undefined): void {
  sink = collect;
}

export function logDownload(line: DownloadLine): void {
  // Locally the sink is where the line is counted: printing it as well only filled `npm start`'s terminal.
  if (sink) sink(line);
  else process.stdout.write(`${JSON.stringify({ [DOWNLOAD_FIELD]: line })}\n`);
}

/** The download lines among log messages (other lines, and malformed ones, are skipped). */
export function downloadLinesOf(messages: readonly string[]): DownloadLine[] {
  const out: DownloadLine[] = [];
  for (const message of messages) {
    try {
      const parsed = JSON.parse(message.slice(message.indexOf('{'))) as Record<string, unknown>;
      const d = parsed[DOWNLOAD_FIELD] as Partial<DownloadLine> | undefined;
      if (d && typeof d.owner === 'string' && typeof d.source === 'string' && typeof d.app === 'number' && typeof d.at === 'number') out.push({ tenant: String(d.tenant ?? ''), owner: d.owner, source: d.source, app: d.app, at: d.at });
    } catch {
      // not a download line
    }
  }
  return out;
}
