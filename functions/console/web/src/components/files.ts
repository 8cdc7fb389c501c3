/** Files the browser saves: CSV exports and the certificate and profile an add answers (as base64). */

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  // A cell a spreadsheet would run as a formula is quoted as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv<T extends Record<string, unknown>>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  return [columns.join(','), ...rows.map((row) => columns.map((c) => csvCell(row[c])).join(','))].join('\r\n') + '\r\n';
}

export function saveCsv<T extends Record<string, unknown>>(name: string, rows: readonly T[], columns: readonly (keyof T & string)[]): void {
  // A byte-order mark so spreadsheet programs read the UTF-8 (names in Chinese, Arabic…).
  save(new Blob(['\ufeff', toCsv(rows, columns)], { type: 'text/csv;charset=utf-8' }), name);
}

export function saveBase64(name: string, base64: string, type: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  save(new Blob([bytes], { type }), name);
}
