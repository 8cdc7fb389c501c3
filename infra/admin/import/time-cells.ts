/**
 * Panel times: Unix seconds (PHP `time()`, the usual `int` column), or MySQL `DATETIME` text
 * (`YYYY-MM-DD HH:MM:SS`, seconds and time optional, `T` accepted between date and time) in the panel's UTC
 * offset, since MySQL stores no zone. `0` and empty are "unknown", as panels write them.
 */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** `+08:00` → 28800; undefined when the text is not an offset. */
export function parseUtcOffset(text: string): number | undefined {
  const m = OFFSET.exec(text.trim());
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 14 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
}

/** Unix seconds, `undefined` for unknown (0), or `null` when the text is not a time. */
export function parsePanelTime(text: string, utcOffsetSeconds: number): number | undefined | null {
  const t = text.trim();
  if (/^\d{1,12}$/.test(t)) {
    const n = Number(t);
    return n === 0 ? undefined : n;
  }
  if (t === '0000-00-00 00:00:00' || t === '0000-00-00') return undefined;
  const m = DATETIME.exec(t);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(ms);
  // Date.UTC rolls 2026-02-31 over into March; a date that does not exist is refused instead.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return Math.floor(ms / 1000) - utcOffsetSeconds;
}
