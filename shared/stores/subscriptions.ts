/**
 * The subscription store of every function that reaches the subscription rules (the purchase, the trial, an
 * owner's limits): the DynamoDB repository, wired when the handler imports this module.
 */
import { getSubscription, subscriptionChangePart, subscriptionRecordPart } from '../db/repositories/subscription-repository';
import type { SubscriptionStore } from '../domain/subscriptions/subscription-store';
import { wireStores } from '../domain/stores';

export const dynamoSubscriptionStore: SubscriptionStore = { current: getSubscription, changePart: subscriptionChangePart, recordPart: subscriptionRecordPart };

wireStores({ subscriptions: dynamoSubscriptionStore });
