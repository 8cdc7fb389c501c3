/**
 * The reseller's list of captures (their sources' and those their tenant profile named them for), newest
 * first. Apart from the capture service so the list's function carries no CMS or plist code.
 */
import { listOwnerCaptures } from '../../db/repositories/udid-capture-repository';
import { captureView } from '../../records/udid-capture';

export async function listCaptures(actor: { tenantId: string; userId: string }, limit: number, cursor: string | undefined) {
  const page = await listOwnerCaptures(actor.tenantId, actor.userId, limit, cursor);
  return { captures: page.items.map(captureView), next_cursor: page.next ?? null };
}
