import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { scrollToTop } from '../../platform/location';

/** Navigation scrolls smoothly to the top (§2 Routes), instantly under reduced motion. */
export function ScrollToTop() {
  const [location] = useLocation();
  useEffect(() => {
    scrollToTop();
  }, [location]);
  return null;
}
