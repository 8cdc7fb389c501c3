/**
 * A source's news items live on the source's own item (a short list, capped), so the feed reads them with the
 * source at no extra cost. Every write is conditional on the source being the actor's on its tenant.
 */
import { updateIf } from '../conditional-write';
import { tableName } from '../table-names';
import type { Actor } from '../../records/source';
import type { NewsItem } from '../../records/source-format';

const OWNED = 'attribute_exists(source_id) AND #tenant = :tenant AND #owner = :owner';
const ownerNames = { '#tenant': 'tenant_id', '#owner': 'owner_id' };
const ownerValues = (actor: Actor) => ({ ':tenant': actor.tenantId, ':owner': actor.userId });

export type AppendOutcome = 'added' | 'not_owned' | 'full';

/** Appends `item` unless the source already holds `max` items. */
export async function appendNews(actor: Actor, sourceId: string, item: NewsItem, max: number): Promise<AppendOutcome> {
  const out = await updateIf({
    TableName: tableName('sources'),
    Key: { source_id: sourceId },
    UpdateExpression: 'SET #news = list_append(if_not_exists(#news, :empty), :item)',
    ConditionExpression: `${OWNED} AND (attribute_not_exists(#news) OR size(#news) < :max)`,
    ExpressionAttributeNames: { ...ownerNames, '#news': 'news' },
    ExpressionAttributeValues: { ...ownerValues(actor), ':empty': [], ':item': [item], ':max': max },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
  if (out.written) return 'added';
  const seen = out.item;
  const owned = seen !== undefined && seen.tenant_id?.S === actor.tenantId && seen.owner_id?.S === actor.userId;
  return owned ? 'full' : 'not_owned';
}

/**
 * Removes the item at `index` if it is still `newsId` there (another removal may have shifted the list since
 * it was read); false when it is not, so the caller reads the list again.
 */
export async function removeNewsAt(actor: Actor, sourceId: string, index: number, newsId: string): Promise<boolean> {
  const out = await updateIf({
    TableName: tableName('sources'),
    Key: { source_id: sourceId },
    UpdateExpression: `REMOVE #news[${index}]`,
    ConditionExpression: `${OWNED} AND #news[${index}].#id = :id`,
    ExpressionAttributeNames: { ...ownerNames, '#news': 'news', '#id': 'news_id' },
    ExpressionAttributeValues: { ...ownerValues(actor), ':id': newsId },
  });
  return out.written;
}
