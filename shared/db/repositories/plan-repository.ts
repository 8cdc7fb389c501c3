/** The plans of each tenant, one partition per tenant. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { updateIf } from '../conditional-write';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import type { Plan } from '../../records/plan';
import { snakeCaseFields, type SnakeCased } from '../../snake-case-fields';

type PlanItem = SnakeCased<Plan>;

const stored = snakeCaseFields<Plan>()(['tenantId', 'planId', 'name', 'price', 'days', 'sources', 'appsPerSource', 'publishedPerSource', 'retired', 'createdAt']);

const fromItem = (item: PlanItem): Plan => ({ ...stored.fromSnake(item), retired: item.retired === true });
const toItem = (plan: Plan): PlanItem => stored.toSnake(plan);

export async function getPlan(tenantId: string, planId: string): Promise<Plan | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('plans'), Key: { tenant_id: tenantId, plan_id: planId }, ConsistentRead: true }));
  return out.Item ? fromItem(out.Item as PlanItem) : undefined;
}

export async function putNewPlan(plan: Plan): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName('plans'), Item: toItem(plan), ConditionExpression: 'attribute_not_exists(plan_id)' }));
}

/** Every plan of the tenant, retired ones included, by id. */
export async function listPlans(tenantId: string): Promise<Plan[]> {
  const items = await queryAll({ TableName: tableName('plans'), KeyConditionExpression: 'tenant_id = :t', ExpressionAttributeValues: { ':t': tenantId } });
  return items.map((item) => fromItem(item as PlanItem));
}

/** Changes an existing plan's fields; undefined when there is no such plan. */
export async function updatePlan(tenantId: string, planId: string, changes: Partial<Omit<PlanItem, 'tenant_id' | 'plan_id' | 'created_at'>>): Promise<Plan | undefined> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const out = await updateIf({
    TableName: tableName('plans'),
    Key: { tenant_id: tenantId, plan_id: planId },
    UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
    ConditionExpression: 'attribute_exists(plan_id)',
    ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    ReturnValues: 'ALL_NEW',
  });
  return out.written ? fromItem(out.output.Attributes as PlanItem) : undefined;
}
