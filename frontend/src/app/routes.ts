/**
 * The central table of routes: every path of the app, its page (lazy-loaded, so each page is its
 * own chunk and heavy libraries such as Recharts stay out of the first load), its title and whether
 * it appears in the main navigation. Build links with `href`, never by hand.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type AppRoute = {
  path: string;
  /** Document title (the product name is appended). */
  title: string;
  /** Label in the main navigation; routes without one are not in the nav. */
  nav?: string;
  Page: LazyExoticComponent<ComponentType>;
};

export const APP_TITLE = 'Storage Sizer';

const TracesPage = lazy(() => import('./routes/traces'));

export const routes = {
  home: { path: '/', title: 'Home', Page: lazy(() => import('./routes/home')) },
  size: { path: '/size', title: 'Size', nav: 'Size', Page: lazy(() => import('./routes/size')) },
  analyses: { path: '/analyses', title: 'Analyses', nav: 'Analyses', Page: lazy(() => import('./routes/analyses')) },
  compare: { path: '/compare', title: 'Compare', nav: 'Compare', Page: lazy(() => import('./routes/compare')) },
  recommend: {
    path: '/recommend',
    title: 'Recommend',
    nav: 'Recommend',
    Page: lazy(() => import('./routes/recommend')),
  },
  plan: { path: '/plan', title: 'Plan', nav: 'Plan', Page: lazy(() => import('./routes/plan')) },
  import: { path: '/import', title: 'Import', nav: 'Import', Page: lazy(() => import('./routes/import')) },
  traces: { path: '/traces', title: 'Traces', nav: 'Traces', Page: TracesPage },
  trace: { path: '/traces/:jobId', title: 'Trace analysis', Page: TracesPage },
  hardware: { path: '/hardware', title: 'Custom hardware', nav: 'Hardware', Page: lazy(() => import('./routes/hardware')) },
  report: { path: '/r/:reportId', title: 'Report', Page: lazy(() => import('./routes/report')) },
  diff: { path: '/diff', title: 'Two reports side by side', Page: lazy(() => import('./routes/diff')) },
} as const satisfies Record<string, AppRoute>;

export const href = {
  home: () => '/',
  size: () => '/size',
  analyses: (section?: string) => (section ? `/analyses#${section}` : '/analyses'),
  compare: () => '/compare',
  recommend: () => '/recommend',
  plan: () => '/plan',
  import: () => '/import',
  traces: () => '/traces',
  trace: (jobId: string) => `/traces/${encodeURIComponent(jobId)}`,
  hardware: () => '/hardware',
  report: (reportId: string) => `/r/${encodeURIComponent(reportId)}`,
  /** Two saved reports side by side (either may be left to choose on the page). */
  diff: (before = '', after = '') => {
    const q = new URLSearchParams();
    if (before) q.set('a', before);
    if (after) q.set('b', after);
    const query = q.toString();
    return query ? `/diff?${query}` : '/diff';
  },
} as const;

/** The main navigation, in table order. */
export const navItems = Object.values(routes as Record<string, AppRoute>)
  .filter((r): r is AppRoute & { nav: string } => r.nav !== undefined)
  .map((r) => ({ to: r.path, label: r.nav }));

export function documentTitle(title: string): string {
  return title === routes.home.title ? APP_TITLE : `${title} · ${APP_TITLE}`;
}
