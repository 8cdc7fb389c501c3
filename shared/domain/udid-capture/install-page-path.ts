/** Where a source's customers land: its install page (the default return target of its profile). */
export function installPagePath(sourceId: string): string {
  return `/api/rjy/${sourceId}/install`;
}
