import { Link } from 'react-router';

import { documentTitle, href } from '../routes';

export default function NotFound() {
  return (
    <article className="page">
      <title>{documentTitle('Page not found')}</title>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to={href.home()}>Go to the start page</Link>.
      </p>
    </article>
  );
}
