import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';

export type NavItem = { to: string; label: string };

type LayoutProps = {
  title: string;
  nav: readonly NavItem[];
  children: ReactNode;
};

/** The app shell: skip link, header with the product name and the main navigation, then the page. */
export function Layout({ title, nav, children }: LayoutProps) {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell-header">
        <Link to="/" className="brand">
          {title}
        </Link>
        <nav aria-label="Main" className="main-nav">
          <ul>
            {nav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
