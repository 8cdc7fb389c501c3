/**
 * What the agent tests share: a tenant with an instant account of its own, its reseller of the operator, and
 * agents made through the API as a reseller would make them.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { tableName } from '../../shared/db/table-names';
import { makeTenant } from '../support/fixtures';
import { newUser, simulatedAccount, udid25, type Testbed } from '../support/add-device-testbed';
import type { ApiResponse } from '../support/api';

export interface Member {
  userId: string;
  token: string;
}

export interface Chain {
  host: string;
  tenantId: string;
  teamId: string;
  accountId: string;
  reseller: Member;
}

export async function chainShop(bed: Testbed, resellerBalance: number): Promise<Chain> {
  const { tenantId, host } = await makeTenant('en');
  const { account, team } = await simulatedAccount(bed.sim, { mode: 'instant', tenantId });
  const reseller = await newUser(resellerBalance, tenantId);
  return { host, tenantId, teamId: team.teamId, accountId: account.accountId, reseller };
}

export function call(bed: Testbed, c: Chain, who: Member, method: string, path: string, json?: unknown, lang = 'en'): Promise<ApiResponse> {
  return bed.api.request(method, path, { headers: { Host: c.host, 'X-Lang': lang, Authorization: `Bearer ${who.token}` }, ...(json !== undefined ? { json } : {}) });
}

/** An instant tier-0 iPhone price for the new agent, cents. */
export async function createAgent(bed: Testbed, c: Chain, parent: Member, price?: number, name = 'agent'): Promise<Member & { level: number }> {
  const prices = price === undefined ? [] : [{ mode: 'instant', warranty: 0, device_type: 'iphone', price }];
  const res = await call(bed, c, parent, 'POST', '/api/user/agents', { name, contact: 'tg: @agent', prices });
  expect(res.body).toMatchObject({ code: 1 });
  const data = res.body.data as { agent_id: string; token: string; level: number };
  return { userId: data.agent_id, token: data.token, level: data.level };
}

export async function topUp(bed: Testbed, c: Chain, parent: Member, agent: Member, amount: number): Promise<ApiResponse> {
  return call(bed, c, parent, 'POST', '/api/user/agents', { agent_id: agent.userId, amount });
}

export function addBy(bed: Testbed, c: Chain, who: Member, udid = udid25()): Promise<ApiResponse> {
  return bed.api.request('POST', '/api/adddevice/v2', { headers: { Host: c.host, 'X-Lang': 'en' }, json: { token: who.token, udid } });
}

/** The events stored for a user, oldest first. */
export async function eventsOf(userId: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const out = await documentClient().send(new QueryCommand({ TableName: tableName('events'), KeyConditionExpression: 'user_id = :u', ExpressionAttributeValues: { ':u': userId }, ConsistentRead: true }));
  return (out.Items ?? []) as Array<{ type: string; data: Record<string, unknown> }>;
}

export { newUser };
