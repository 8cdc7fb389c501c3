import { addDeviceMessages } from './messages/add-device';
import { commonMessages } from './messages/common';
import { deviceMessages } from './messages/device';
import { downloadMessages } from './messages/download';
import { managementMessages } from './messages/management';
import { protectionMessages } from './messages/protection';
import { rateLimitMessages } from './messages/rate-limit';
import type { Translations } from './define-messages';
import type { Lang } from './languages';

/** Every message of the product. Each capability keeps its messages in its own file under messages/. */
export const catalog = {
  ...commonMessages,
  ...addDeviceMessages,
  ...deviceMessages,
  ...downloadMessages,
  ...managementMessages,
  ...protectionMessages,
  ...rateLimitMessages,
} satisfies Record<string, Translations>;

export type MessageKey = keyof typeof catalog;

export type MessageParams = Record<string, string | number>;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(catalog, key);
}

/** The message in `lang`, with `{name}` placeholders filled from `params`. */
export function translate(lang: Lang, key: MessageKey, params: MessageParams = {}): string {
  const template = catalog[key][lang];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
