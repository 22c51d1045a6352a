export { Layout, type NavItem } from './layout/layout';
export { Loading } from './feedback/loading';
export { ErrorState } from './feedback/error-state';
export { Figure, formatNumber, type FigureExplanation } from './figure/figure';
