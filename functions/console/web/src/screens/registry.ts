/**
 * The screens: every `screens/<name>/screen.ts` is one, found by the build (Vite's `import.meta.glob`), so a
 * new screen is a new folder and nothing else changes. A screen's `screen.ts` holds only what the navigation
 * needs (its id, place, title and icon); its component and strings load when it is first opened, which keeps
 * the first load small.
 */
import type { ComponentType } from 'preact';
import type { Session } from '../api/session';
import type { Translations } from '../i18n';
import type { Route } from '../router';

export interface ScreenProps {
  session: Session;
  /** The route's segments after the screen's id (`#/devices/k123` → `['k123']`). */
  rest: string[];
  query: URLSearchParams;
}

export interface ScreenMeta {
  /** Also its address: `#/<id>`. */
  id: string;
  /** Its place in the navigation, lowest first. */
  order: number;
  title: Translations;
  /** An SVG path (24×24 view box) for the navigation. */
  icon: string;
  load: () => Promise<{ default: ComponentType<ScreenProps> }>;
}

const found = import.meta.glob<{ screen: ScreenMeta }>('./*/screen.ts', { eager: true });

export const screens: ScreenMeta[] = Object.values(found)
  .map((module) => module.screen)
  .sort((a, b) => a.order - b.order);

export function screenFor(route: Route): ScreenMeta | undefined {
  const [id] = route.segments;
  return id === undefined ? screens[0] : screens.find((screen) => screen.id === id);
}
