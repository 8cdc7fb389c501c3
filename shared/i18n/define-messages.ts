import type { Lang } from './languages';

/** One message in every supported language: a missing translation is a type error, so it fails the build. */
export type Translations = Readonly<Record<Lang, string>>;

export function defineMessages<const K extends string>(messages: Record<K, Translations>): Record<K, Translations> {
  return messages;
}
