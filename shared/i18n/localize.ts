import { logger } from '../logger';
import type { Translations } from './define-messages';
import type { Lang } from './languages';
import type { addDeviceMessages } from './messages/add-device';
import type { commonMessages } from './messages/common';
import type { deviceMessages } from './messages/device';
import type { downloadMessages } from './messages/download';
import type { managementMessages } from './messages/management';
import type { protectionMessages } from './messages/protection';
import type { rateLimitMessages } from './messages/rate-limit';
import type { selfServiceMessages } from './messages/self-service';
import type { subscriptionMessages } from './messages/subscriptions';
import type { eventMessages } from './messages/events';
import type { udidCaptureMessages } from './messages/udid-capture';
import type { ipaMessages } from './messages/ipa';
import type { newsMessages } from './messages/news';
import type { newsLookupMessages } from './messages/news-lookup';
import type { deviceProofMessages } from './messages/device-proof';
import type { subscriptionStateMessages } from './messages/subscription-state';
import type { suspensionMessages } from './messages/suspension';
import type { appLifecycleMessages } from './messages/app-lifecycle';
import type { quotaMessages } from './messages/quota';
import type { pagingMessages } from './messages/paging';
import type { deviceAnswerMessages } from './messages/device-answer';
import type { udidProfileMessages } from './messages/udid-profile';
import type { captureTicketMessages } from './messages/capture-ticket';
import type { tokenMessages } from './messages/token';
import type { customerPageMessages } from './messages/customer-page';
import type { customerActionMessages } from './messages/customer-actions';
import type { appleAccountMessages } from './messages/apple-accounts';
import type { appleAccountLookupMessages } from './messages/apple-account-lookup';
import type { agentMessages } from './messages/agents';
import type { agentLookupMessages } from './messages/agent-lookup';
import type { consoleMessages } from './messages/console';
import type { consoleAuthMessages } from './messages/console-auth';
import type { consoleSessionMessages } from './messages/console-session';
import type { statsMessages } from './messages/stats';
import type { storefrontMessages } from './messages/storefront';
import type { storefrontPageMessages } from './messages/storefront-page';

/** Every message key of the product (a type only: no function pays for catalogs it does not answer with). */
export type MessageKey = keyof (typeof commonMessages &
  typeof consoleMessages &
  typeof agentMessages &
  typeof agentLookupMessages &
  typeof addDeviceMessages &
  typeof deviceMessages &
  typeof downloadMessages &
  typeof managementMessages &
  typeof protectionMessages &
  typeof rateLimitMessages &
  typeof selfServiceMessages &
  typeof subscriptionMessages &
  typeof eventMessages &
  typeof udidCaptureMessages &
  typeof ipaMessages &
  typeof newsLookupMessages &
  typeof newsMessages &
  typeof deviceProofMessages &
  typeof subscriptionMessages &
  typeof subscriptionStateMessages &
  typeof suspensionMessages &
  typeof appLifecycleMessages &
  typeof quotaMessages &
  typeof pagingMessages &
  typeof deviceAnswerMessages &
  typeof udidProfileMessages &
  typeof captureTicketMessages &
  typeof tokenMessages &
  typeof customerPageMessages &
  typeof customerActionMessages &
  typeof appleAccountMessages &
  typeof appleAccountLookupMessages &
  typeof consoleAuthMessages &
  typeof consoleSessionMessages &
  typeof statsMessages &
  typeof storefrontMessages &
  typeof storefrontPageMessages);

export type MessageParams = Record<string, string | number>;

/**
 * The messages this function answers with. Each message file holds a capability's messages in all seven
 * languages; a function registers the files of the capabilities it serves (the shared chain registers its own),
 * so its bundle carries those and no others. test/infra/bundle-contents.test.ts checks every message key a
 * bundle can answer with has its translations in that bundle.
 */
const inUse = new Map<string, Translations>();

export function useMessages(...capabilities: ReadonlyArray<Partial<Record<MessageKey, Translations>>>): void {
  for (const messages of capabilities) for (const [key, translations] of Object.entries(messages)) inUse.set(key, translations);
}

export function fillPlaceholders(template: string, params: MessageParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** The message in `lang`, with `{name}` placeholders filled from `params`. */
export function localize(lang: Lang, key: MessageKey, params: MessageParams = {}): string {
  const translations = inUse.get(key);
  if (!translations) {
    // A function answering with a capability it did not register: a build mistake the bundle test catches.
    logger.error('Message not registered by this function', { key });
    return key;
  }
  return fillPlaceholders(translations[lang], params);
}
