import { useEffect, useState } from 'react';

/** Where the console is: the path picks the page, the query string its state (an open document). */
export interface Location {
  path: string;
  params: URLSearchParams;
}

const current = (): Location => ({
  path: window.location.pathname.replace(/(.)\/$/, '$1'),
  params: new URLSearchParams(window.location.search),
});

/** Goes to a console URL without reloading (the API serves index.html for each page too). */
export function navigate(url: string): void {
  window.history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return location;
}
