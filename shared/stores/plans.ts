/** The plan store of every function that sells plans: the DynamoDB repository, wired when the handler imports this module. */
import { listPlans } from '../db/repositories/plan-repository';
import type { PlanStore } from '../domain/subscriptions/subscription-store';
import { wireStores } from '../domain/stores';

export const dynamoPlanStore: PlanStore = { list: listPlans };

wireStores({ plans: dynamoPlanStore });
