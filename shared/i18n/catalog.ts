import { addDeviceMessages } from './messages/add-device';
import { commonMessages } from './messages/common';
import { deviceMessages } from './messages/device';
import { downloadMessages } from './messages/download';
import { managementMessages } from './messages/management';
import { protectionMessages } from './messages/protection';
import { rateLimitMessages } from './messages/rate-limit';
import { selfServiceMessages } from './messages/self-service';
import { subscriptionMessages } from './messages/subscriptions';
import { eventMessages } from './messages/events';
import { udidCaptureMessages } from './messages/udid-capture';
import { ipaMessages } from './messages/ipa';
import { newsMessages } from './messages/news';
import { newsLookupMessages } from './messages/news-lookup';
import { deviceProofMessages } from './messages/device-proof';
import { subscriptionStateMessages } from './messages/subscription-state';
import { suspensionMessages } from './messages/suspension';
import { appLifecycleMessages } from './messages/app-lifecycle';
import { quotaMessages } from './messages/quota';
import { pagingMessages } from './messages/paging';
import { deviceAnswerMessages } from './messages/device-answer';
import { udidProfileMessages } from './messages/udid-profile';
import { captureTicketMessages } from './messages/capture-ticket';
import { tokenMessages } from './messages/token';
import { customerPageMessages } from './messages/customer-page';
import { customerActionMessages } from './messages/customer-actions';
import { appleAccountMessages } from './messages/apple-accounts';
import { appleAccountLookupMessages } from './messages/apple-account-lookup';
import { agentMessages } from './messages/agents';
import { agentLookupMessages } from './messages/agent-lookup';
import { consoleAuthMessages } from './messages/console-auth';
import { statsMessages } from './messages/stats';
import { storefrontMessages } from './messages/storefront';
import { storefrontPageMessages } from './messages/storefront-page';
import { consoleSessionMessages } from './messages/console-session';
import { fillPlaceholders, type MessageKey, type MessageParams } from './localize';
import type { Translations } from './define-messages';
import type { Lang } from './languages';

import { consoleMessages } from './messages/console';
/**
 * Every message of the product, for tooling and tests (the OpenAPI document, catalog checks). Functions do not
 * import this: each carries only the capabilities' messages it answers with (see localize.ts).
 */
export const catalog = {
  ...commonMessages,
  ...consoleMessages,
  ...addDeviceMessages,
  ...appleAccountMessages,
  ...appleAccountLookupMessages,
  ...deviceMessages,
  ...downloadMessages,
  ...managementMessages,
  ...protectionMessages,
  ...rateLimitMessages,
  ...selfServiceMessages,
  ...subscriptionMessages,
  ...eventMessages,
  ...udidCaptureMessages,
  ...ipaMessages,
  ...newsLookupMessages,
  ...newsMessages,
  ...deviceProofMessages,
  ...subscriptionStateMessages,
  ...suspensionMessages,
  ...appLifecycleMessages,
  ...quotaMessages,
  ...pagingMessages,
  ...deviceAnswerMessages,
  ...udidProfileMessages,
  ...captureTicketMessages,
  ...tokenMessages,
  ...customerPageMessages,
  ...agentMessages,
  ...agentLookupMessages,
  ...customerActionMessages,
  ...consoleAuthMessages,
  ...consoleSessionMessages,
  ...statsMessages,
  ...storefrontMessages,
  ...storefrontPageMessages,
} satisfies Record<MessageKey, Translations>;

/** The message in `lang` from the whole catalog, with `{name}` placeholders filled from `params`. */
export function translate(lang: Lang, key: MessageKey, params: MessageParams = {}): string {
  return fillPlaceholders(catalog[key][lang], params);
}
